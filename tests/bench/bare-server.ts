import Fastify from 'fastify';
import { openReferenceWriter, type Target } from './ledger-write.ts';

// The ceiling reference of the transfer bench, started by http.bench.ts in a process of its own: a
// bare Fastify route that does the same ledger write as POST /api/v1/transfer/touser in raw SQL, with
// no session, CSRF, validation, idempotency record or response mapping. Configured like the server
// (PORT, DATA_DIR or DATABASE_URL + DATABASE_SCHEMA) on a database prepareReferenceDatabase made.

const port = Number(process.env.PORT);
const target: Target = process.env.DATABASE_URL
  ? { dialect: 'postgres', url: process.env.DATABASE_URL, schema: process.env.DATABASE_SCHEMA ?? 'public' }
  : { dialect: 'sqlite', dataDir: process.env.DATA_DIR ?? '' };
const writer = openReferenceWriter(target);

type Body = { from: string; to: string; amount_cents: number; by: string };

const app = Fastify();
app.addHook('onClose', () => writer.close());
app.get('/health', async () => ({ status: 'ok' }));
app.post('/transfer', async (request, reply) => {
  const body = request.body as Body;
  const moved = await writer.transfer({
    debit: body.from,
    credit: body.to,
    amountCents: body.amount_cents,
    createdBy: body.by,
  });
  return reply.status(moved ? 201 : 422).send({ moved });
});

await app.listen({ port, host: '127.0.0.1' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
