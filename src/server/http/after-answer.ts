import type { FastifyInstance, FastifyReply } from 'fastify';

// Work whose time must not show in an answer (it would tell a caller something the answer does not)
// runs once the answer has gone: when the response closes, sent or abandoned by its client. A failure
// is logged; the caller has had their answer. The app's close waits for work still running, so a
// restart neither cuts it off nor closes the database under it.

export type AfterAnswer = (reply: FastifyReply, work: () => Promise<void>) => void;

export function registerAfterAnswer(app: FastifyInstance): AfterAnswer {
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    while (running.size) await Promise.allSettled([...running]);
  });
  return (reply, work) => {
    reply.raw.once('close', () => {
      const task: Promise<void> = work()
        .catch((error: unknown) => reply.log.error({ err: error }, 'work after the answer failed'))
        .finally(() => running.delete(task));
      running.add(task);
    });
  };
}
