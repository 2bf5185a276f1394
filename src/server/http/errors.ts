import type { FastifyError, FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { type FieldError, issuesToFieldErrors } from '../../shared/errors.ts';
import { GENERIC } from '../../shared/messages.ts';
import { redactUrl } from './request-log.ts';

/** The server's one error type: an HTTP status, the message a person reads, and optional field errors. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: { errors?: FieldError[]; error?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (errors: FieldError[]) =>
  new AppError(400, errors[0]?.message ?? GENERIC.invalidInput, { errors });
export const invalidInput = (issues: readonly v.BaseIssue<unknown>[]) =>
  badRequest(issuesToFieldErrors(issues));
export const unauthorized = (message: string = GENERIC.notSignedIn) => new AppError(401, message);
export const forbidden = (message: string = GENERIC.forbidden) => new AppError(403, message);
export const notFound = (message: string = GENERIC.notFound) => new AppError(404, message);
export const conflict = (message: string, errors?: FieldError[]) => new AppError(409, message, { errors });
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, GENERIC.tooManyRequests, { retryAfterSeconds });

/** Turns every thrown error into the API's error body; a 5xx is logged and answered with a generic message. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.details.retryAfterSeconds)
        reply.header('retry-after', String(error.details.retryAfterSeconds));
      const { errors, error: detail } = error.details;
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(detail ? { error: detail } : {}),
        ...(errors ? { errors } : {}),
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error(
        { err: error, url: redactUrl(request.url), method: request.method },
        'request failed',
      );
      return reply.status(500).send({ message: GENERIC.internal });
    }
    // Fastify's own 4xx (malformed JSON, body too large, wrong content type): its code says which.
    const message =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? GENERIC.invalidJson
        : error.message;
    return reply.status(status).send({ message });
  });
}
