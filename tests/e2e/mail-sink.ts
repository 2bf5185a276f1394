import { createServer } from 'node:http';
import { startSmtp } from '../helpers/smtp.ts';

// The e2e run's mail relay: a real SMTP server (smtp-server) that the product's server sends to
// (SMTP_URL in playwright.config.ts), and, beside it on loopback, GET /mails?to=ADDRESS answering the
// mails it received for that address, newest first, so a spec reads a reset link or a code the way the
// member would: from the mail. POST /refuse?to=ADDRESS makes it refuse every mail to that address (451,
// as a full mailbox; the server retries, then marks the mail failed) until DELETE /refuse?to=ADDRESS;
// other addresses are not affected, so no other spec's mails are. Started and stopped by Playwright as
// a web server of the run.

const smtpPort = Number(process.env.E2E_SMTP_PORT);
const smtp = await startSmtp(smtpPort);

const http = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/health') {
    response.end('ok');
    return;
  }
  if (url.pathname === '/refuse' && (request.method === 'POST' || request.method === 'DELETE')) {
    const to = url.searchParams.get('to') ?? '';
    if (!to) {
      response.statusCode = 400;
      response.end('to= is required');
      return;
    }
    smtp.refuseTo(to, request.method === 'POST');
    response.statusCode = 204;
    response.end();
    return;
  }
  if (url.pathname !== '/mails') {
    response.statusCode = 404;
    response.end();
    return;
  }
  const to = (url.searchParams.get('to') ?? '').toLowerCase();
  const mails = smtp.mails.filter((mail) => mail.to.toLowerCase().includes(to)).reverse();
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ mails }));
});
http.listen(smtpPort + 1, '127.0.0.1');

const stop = () => {
  http.close();
  void smtp.stop().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
