import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// A real SMTP server on a free loopback port that keeps every mail it accepts, parsed. It can refuse
// mails (a 451, as a relay that is having trouble) to exercise the outbox's retries: the next n mails,
// or every mail to given addresses (a mailbox that is full until someone empties it).

export type ReceivedMail = { to: string; subject: string; text: string; html: string; from: string };

export type TestSmtp = {
  url: string;
  mails: ReceivedMail[];
  /** Refuse the next n mails (n = Infinity: refuse until told otherwise). */
  refuse: (n: number) => void;
  /** Refuse (on = true) or accept again every mail to this address, whatever else is refused. */
  refuseTo: (to: string, on: boolean) => void;
  /** How many mails were refused so far. */
  refused: () => number;
  /** Resolves with the first mail to this address that satisfies the test, waiting for it if need be. */
  waitFor: (to: string, test?: (mail: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
};

const toReceived = (mail: ParsedMail): ReceivedMail => ({
  to: (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).map((a) => a.text).join(', '),
  from: mail.from?.text ?? '',
  subject: mail.subject ?? '',
  text: mail.text ?? '',
  html: typeof mail.html === 'string' ? mail.html : '',
});

/** Listens on `port` (default: any free port) of 127.0.0.1. */
export async function startSmtp(port = 0): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let toRefuse = 0;
  let refusedCount = 0;
  const refusedAddresses = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const refusedRecipient = session.envelope.rcptTo.some((rcpt) =>
        refusedAddresses.has(rcpt.address.toLowerCase()),
      );
      if (refusedRecipient || toRefuse > 0) {
        if (!refusedRecipient) toRefuse -= 1;
        refusedCount += 1;
        stream.resume();
        stream.on('end', () => {
          const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
          callback(error);
        });
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          mails.push(toReceived(parsed));
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;

  const find = (to: string, test: (mail: ReceivedMail) => boolean) =>
    mails.find((mail) => mail.to.toLowerCase().includes(to.toLowerCase()) && test(mail));

  return {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    refuse: (n) => {
      toRefuse = n;
    },
    refuseTo: (to, on) => {
      if (on) refusedAddresses.add(to.toLowerCase());
      else refusedAddresses.delete(to.toLowerCase());
    },
    refused: () => refusedCount,
    waitFor: (to, test = () => true, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = find(to, test);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms (received: ${mails.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
