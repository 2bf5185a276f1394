import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

// A URL can carry a secret in its query: the password-reset link (`/reset-password?token=`) is loaded
// from the server like any page, and a log line with it is a way into the member's account for
// whoever reads the logs. Every URL written to the log goes through redactUrl first.

/** Query parameters whose value is a secret (or may be): by name, whatever their case. */
const SECRET_PARAMETER = /token|secret|passw|otp|code|key|sig|auth|session|nonce|credential/i;

export const REDACTED = '[redacted]';

/** The URL with the value of every secret-looking query parameter replaced; the rest as it came. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  return (
    url.slice(0, query) +
    url
      .slice(query)
      .replace(/([?&;])([^=?&;#]*)=([^?&;#]*)/g, (whole, separator: string, name: string) =>
        SECRET_PARAMETER.test(decodedName(name)) ? `${separator}${name}=${REDACTED}` : whole,
      )
  );
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** Fastify's request serializer (logger-pino.js) with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: (request.headers as { 'accept-version'?: string } | undefined)?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined,
  };
}

/** Fastify's log lines, with its one line that writes the raw URL itself redacted too. */
export class RedactingLogController extends LogController {
  override routeNotFound(request: FastifyRequest, _reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    request.log.info(`Route ${request.raw.method}:${redactUrl(request.raw.url ?? '')} not found`);
  }
}
