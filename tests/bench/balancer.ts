import http from 'node:http';

// The load balancer of the cluster and rolling-restart benches, started in a process of its own (so its
// CPU can be read from /proc apart from the load generator's and the servers'): each request goes to
// the next server in rotation over kept-alive connections, with the client's address appended to
// X-Forwarded-For as nginx's $proxy_add_x_forwarded_for does (the servers run with TRUST_PROXY set to
// this address). What a real proxy does for a rolling restart, and no more:
// - An active readiness check (HAProxy's `option httpchk`, nginx Plus' `health_check`): every
//   BALANCER_CHECK_MS each server is asked GET /api/v1/health/ready on a new connection; a 200 puts it in
//   rotation, anything else (503 while it warms up or drains, refused, no answer within
//   BALANCER_CHECK_TIMEOUT_MS) takes it out. A server starts out of rotation until its first 200.
// - One retry on another server when the connection fails before any answer came (refused, or reset
//   before the status line): the request goes again, its headers unchanged, so a transfer carries its
//   Idempotency-Key and a retry of one that did commit gets the stored answer, not a second transfer.
//   That server also leaves rotation until its next check answers 200 (nginx's passive `max_fails=1`).
//   Once an answer has begun nothing is retried: the client sees the cut.
// GET /.balancer answers which servers are in rotation and how many requests were retried, failed (502),
// or sent while none was in rotation, for the benches.
// PORT; BALANCER_TARGETS: the servers' host:port, comma-separated; BALANCER_CHECK_MS (200; 0: no checks,
// every server always in rotation); BALANCER_CHECK_TIMEOUT_MS (1000).

const port = Number(process.env.PORT);
const checkMs = Number(process.env.BALANCER_CHECK_MS ?? 200);
const checkTimeoutMs = Number(process.env.BALANCER_CHECK_TIMEOUT_MS ?? 1000);
const targets = (process.env.BALANCER_TARGETS ?? '').split(',').map((target) => {
  const [host = '', targetPort = ''] = target.trim().split(':');
  return { host, port: Number(targetPort), inRotation: checkMs <= 0 };
});
if (!targets.length || targets.some((t) => !t.host || !t.port))
  throw new Error('BALANCER_TARGETS: host:port,...');
type Target = (typeof targets)[number];

// Connection-scoped headers (RFC 9110 7.6.1) belong to one hop, not to the request.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

const withoutHopHeaders = (headers: http.IncomingHttpHeaders) => {
  const kept: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
};

const agent = new http.Agent({ keepAlive: true });
const counts = { retried: 0, failed: 0, panicked: 0 };
let next = 0;

/**
 * The next server in rotation after the last one picked, other than `not`. With none in rotation, the
 * next of all the others (Envoy's panic mode; nginx and HAProxy refuse instead): a check that times out
 * because every server is busy must not turn a slow service into none.
 */
const pick = (not?: Target) => {
  const others = targets.filter((t) => t !== not);
  const ready = others.filter((t) => t.inRotation);
  if (others.length && !ready.length) counts.panicked += 1;
  const candidates = ready.length ? ready : others;
  return candidates[next++ % candidates.length];
};

const server = http.createServer((request, response) => {
  if (request.url === '/.balancer') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ targets, ...counts }));
    return;
  }
  const headers = withoutHopHeaders(request.headers);
  const client = request.socket.remoteAddress ?? '';
  const forwarded = request.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwarded ? `${forwarded}, ${client}` : client;
  // The body is read whole first, so that it can be sent again (the API's bodies are small).
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    if (body.length) headers['content-length'] = body.length;
    const send = (target: Target | undefined, retried: boolean) => {
      if (!target) {
        counts.failed += 1;
        response.writeHead(502).end();
        return;
      }
      const upstream = http.request(
        { host: target.host, port: target.port, method: request.method, path: request.url, headers, agent },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, withoutHopHeaders(answer.headers));
          answer.pipe(response);
        },
      );
      upstream.on('error', () => {
        if (response.headersSent) {
          response.destroy();
          return;
        }
        if (checkMs > 0) target.inRotation = false;
        if (retried) {
          counts.failed += 1;
          response.writeHead(502).end();
          return;
        }
        counts.retried += 1;
        send(pick(target), true);
      });
      upstream.end(body);
    };
    send(pick(), false);
  });
});
server.keepAliveTimeout = 75_000;
server.listen(port, '127.0.0.1');

/** Asks one server for readiness, then again BALANCER_CHECK_MS after the answer (or its absence). */
const check = (target: Target) => {
  let settled = false;
  const settle = (ready: boolean) => {
    if (settled) return;
    settled = true;
    target.inRotation = ready;
    setTimeout(() => check(target), checkMs);
  };
  const probe = http.get(
    { host: target.host, port: target.port, path: '/api/v1/health/ready', agent: false },
    (answer) => {
      answer.resume();
      answer.once('end', () => settle(answer.statusCode === 200));
      answer.once('close', () => settle(false));
    },
  );
  probe.setTimeout(checkTimeoutMs, () => probe.destroy());
  probe.once('error', () => settle(false));
};
if (checkMs > 0) for (const target of targets) check(target);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    agent.destroy();
    process.exit(0);
  });
}
