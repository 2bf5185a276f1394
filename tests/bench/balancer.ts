import http from 'node:http';

// The load balancer of the cluster bench, started by cluster.bench.ts in a process of its own (so its
// CPU can be read from /proc apart from the load generator's and the servers'): each request goes to
// the next server in turn over kept-alive connections, with the client's address appended to
// X-Forwarded-For as nginx's $proxy_add_x_forwarded_for does (the servers run with TRUST_PROXY set to
// this address). No retries, no health checks: a server that fails answers 502 and the bench counts it.
// PORT, and BALANCER_TARGETS: the servers' host:port, comma-separated.

const port = Number(process.env.PORT);
const targets = (process.env.BALANCER_TARGETS ?? '').split(',').map((target) => {
  const [host = '', targetPort = ''] = target.trim().split(':');
  return { host, port: Number(targetPort) };
});
if (!targets.length || targets.some((t) => !t.host || !t.port))
  throw new Error('BALANCER_TARGETS: host:port,...');

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
let next = 0;

const server = http.createServer((request, response) => {
  const target = targets[next++ % targets.length] as (typeof targets)[number];
  const headers = withoutHopHeaders(request.headers);
  const client = request.socket.remoteAddress ?? '';
  const forwarded = request.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwarded ? `${forwarded}, ${client}` : client;
  const upstream = http.request(
    { host: target.host, port: target.port, method: request.method, path: request.url, headers, agent },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, withoutHopHeaders(answer.headers));
      answer.pipe(response);
    },
  );
  upstream.on('error', () => {
    if (response.headersSent) response.destroy();
    else response.writeHead(502).end();
  });
  request.pipe(upstream);
});
server.keepAliveTimeout = 75_000;
server.listen(port, '127.0.0.1');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    agent.destroy();
    process.exit(0);
  });
}
