import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { MailOutboxTable } from '../../db/schema.ts';
import { readRules } from '../settings/settings.service.ts';
import { claimMail, dueMails, markFailed, markRetry, markSent } from './mail.repository.ts';

// Sends the outbox. Cheap when idle: one indexed query every pollMs, plus an immediate run when this
// process has just committed a mail (nudgeMail). Several server instances may run it on one database:
// claimMail lets exactly one of them try a given mail at a time.

/** After this many failed tries a mail is marked failed and shown to admins. */
export const MAX_MAIL_ATTEMPTS = 5;
/** How long a claimed mail stays out of other workers' reach while it is being sent. */
const LEASE_MS = 2 * 60_000;
const BATCH = 20;

type Log = {
  info: (object: unknown, message: string) => void;
  warn: (object: unknown, message: string) => void;
};

export type MailWorker = { nudge: () => void; stop: () => Promise<void>; runOnce: () => Promise<void> };

const workers = new WeakMap<Db, MailWorker>();

/** MAIL_FROM's address: "Name <a@b>" gives a@b; the name shown is the site name setting. */
export const senderAddress = (from: string) => /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();

/** Asks this process's worker to look at the outbox now (after a commit that wrote a mail). */
export function nudgeMail(db: Db): void {
  workers.get(db)?.nudge();
}

export function startMailWorker(db: Db, config: MailConfig, log: Log): MailWorker {
  const transport: Transporter | undefined = config.smtpUrl
    ? nodemailer.createTransport({
        url: config.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
    : undefined;

  const deliver = async (mail: MailOutboxTable) => {
    if (!transport) {
      // No mail server: the product still works, and the operator reads the mail in the log.
      log.info(
        { mail: { to: mail.to_address, subject: mail.subject, text: mail.text_body } },
        'mail logged (SMTP_URL is not set)',
      );
      return;
    }
    await transport.sendMail({
      from: { name: (await readRules(db)).siteName, address: senderAddress(config.from) },
      to: mail.to_address,
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body,
    });
  };

  const attempt = async (mail: MailOutboxTable) => {
    const now = Date.now();
    if (!(await claimMail(db, mail, new Date(now + LEASE_MS).toISOString()))) return;
    const tries = mail.attempts + 1;
    try {
      await deliver(mail);
      await markSent(db, mail.id, new Date().toISOString());
    } catch (error) {
      const reason = String(error instanceof Error ? error.message : error).slice(0, 500);
      if (tries >= MAX_MAIL_ATTEMPTS) {
        await markFailed(db, mail.id, reason);
        log.warn({ mailId: mail.id, tries, reason }, 'mail failed for good');
      } else {
        const delay = config.retryBaseMs * 2 ** (tries - 1);
        await markRetry(db, mail.id, new Date(Date.now() + delay).toISOString(), reason);
        log.warn({ mailId: mail.id, tries, reason }, 'mail not sent; will retry');
      }
    }
  };

  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const runOnce = async () => {
    for (;;) {
      const due = await dueMails(db, new Date().toISOString(), BATCH);
      for (const mail of due) await attempt(mail);
      if (due.length < BATCH) return;
    }
  };
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = runOnce()
      .catch((error) => log.warn({ err: error }, 'mail worker run failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };

  const timer = setInterval(run, config.pollMs);
  timer.unref();
  const worker: MailWorker = {
    nudge: () => setImmediate(run),
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      transport?.close();
    },
    runOnce,
  };
  workers.set(db, worker);
  return worker;
}
