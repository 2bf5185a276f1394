import { isIP } from 'node:net';
import { resolve } from 'node:path';

// Environment variables of API.md "Running the server". Read once at start; nothing else reads process.env.

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use instead of public (tests run each suite in a schema of its own). */
  databaseSchema: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  publicUrl: string;
  /** Built PWA; when it has no index.html the server answers the API only. */
  clientDir: string;
  logLevel: string;
  /**
   * Which hops' X-Forwarded-For to believe (Fastify's trustProxy): false (none), a hop count, or the
   * proxies' addresses/CIDRs. Never true: that takes the leftmost entry, which the client writes itself.
   */
  trustProxy: false | number | string[];
  /** 'sandbox' (built in, no network) or 'nowpayments'. */
  paymentProvider: 'sandbox' | 'nowpayments';
  nowpayments: { apiKey: string | undefined; ipnSecret: string | undefined; baseUrl: string };
  /** Sandbox: time between status steps after a simulated transfer. */
  sandboxStepMs: number;
  /** How often open payments are re-checked with the provider in the background (0: never). */
  paymentSweepMs: number;
  /** Live channel: a heartbeat on every open stream this often; each one also re-checks the session. */
  liveHeartbeatMs: number;
  /** Web Push: the VAPID subject (an https: or mailto: contact for the push services). */
  vapidSubject: string;
  /** Web Push: accept http subscription endpoints on 127.0.0.1/localhost (tests' fake push service only). */
  pushAllowLoopback: boolean;
  /** Mail (issue 14): SMTP_URL empty means mails are logged and marked sent; MAIL_FROM is the sender. */
  mail: MailConfig;
  /** TOTP secrets' AES-256-GCM key (base64, 32 bytes); without it a key file in DATA_DIR is used. */
  totpEncryptionKey: string | undefined;
  /** The daily income run (RULES.md "Daily income"). */
  income: IncomeConfig;
  /** The monthly salary run (RULES.md "Rewards, salary, CTO, leadership"). */
  salary: SalaryConfig;
  /** On-chain deposits (issue 18, API.md "Running the server"). */
  web3: Web3Config;
  /** METRICS_TOKEN: the bearer token of GET /api/v1/metrics; unset, that route is a 404. */
  metricsToken: string | undefined;
  /** Restarts (docs/deployment.md "Restarts"). */
  shutdown: ShutdownConfig;
  /**
   * WARM_UP: run the hot paths before readiness answers 200 (default); 'off' is for the restart
   * benchmark's comparison and for tests that need no warm process.
   */
  warmUp: boolean;
  /**
   * PASSWORD_HASH_COST: 'production' (the default: argon2id at OWASP's minimum) or 'test' (the least
   * argon2id takes, for test servers that register hundreds of members; NODE_ENV=production refuses it).
   * A hash records its own cost, so either setting checks every stored password.
   */
  passwordHashCost: 'production' | 'test';
};

export type ShutdownConfig = {
  /**
   * SHUTDOWN_DELAY_MS: after SIGTERM, how long the process keeps serving while readiness already says
   * 503, so the load balancer's health check takes it out before it stops accepting.
   */
  delayMs: number;
  /** SHUTDOWN_TIMEOUT_MS: how long requests in flight may take after that before the process exits anyway. */
  timeoutMs: number;
};

export type Web3Config = {
  /** BSC_RPC_URL: the JSON-RPC the server reads receipts from; without it every deposit waits for an admin. */
  rpcUrl: string | undefined;
  /** USDT_CONTRACT: the token accepted (lower case). */
  tokenContract: string | undefined;
  /** DEPOSIT_ADDRESS: where members send it (lower case). */
  depositAddress: string | undefined;
  /** WALLETCONNECT_PROJECT_ID: public by nature (it ships in the client); empty: no wallet button. */
  walletConnectProjectId: string | undefined;
  /** WALLETCONNECT_RELAY_URL: a relay of the operator's own (wss://); unset: WalletConnect's public relay. */
  walletConnectRelayUrl: string | undefined;
  /** How often confirming deposits are re-read from the chain in the background (0: never). */
  pollMs: number;
};

export type SalaryConfig = {
  /** When the scheduler pays last month (cron, UTC), or 'off' (SALARY_SCHEDULE). */
  schedule: string;
  /** How often the scheduler looks for ended months not paid yet and abandoned runs (0: never). */
  retryMs: number;
  /** How many ended months back (ending last month) the scheduler pays months never run. */
  catchUpMonths: number;
  /** How long a run holds its month without news from its server; another may take it over after. */
  leaseMs: number;
  /** A pause after each member paid (leaves room for members' requests during a long run on SQLite). */
  payPauseMs: number;
};

export type IncomeConfig = {
  /** When the scheduler pays yesterday (cron, UTC), or 'off' (INCOME_SCHEDULE). */
  schedule: string;
  /** How often the scheduler retries a failed or abandoned run, and pays a missed yesterday (0: never). */
  retryMs: number;
  /** How many days back the scheduler pays dates that were never run (server down at 00:05). */
  catchUpDays: number;
  leaseMs: number;
  chunkSize: number;
  chunkPauseMs: number;
};

export type MailConfig = {
  smtpUrl: string | undefined;
  from: string;
  /** How often the outbox worker looks for due mails when nothing nudged it. */
  pollMs: number;
  /** First retry delay; each further try waits twice as long. */
  retryBaseMs: number;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const host = env.HOST || '127.0.0.1';
  const config: Config = {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    publicUrl: (env.PUBLIC_URL || `http://${host}:${port}`).replace(/\/$/, ''),
    clientDir: resolve(env.CLIENT_DIR || './dist'),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    paymentProvider: paymentProviderOf(env),
    nowpayments: {
      apiKey: env.NOWPAYMENTS_API_KEY || undefined,
      ipnSecret: env.NOWPAYMENTS_IPN_SECRET || undefined,
      baseUrl: (env.NOWPAYMENTS_BASE_URL || 'https://api.nowpayments.io').replace(/\/$/, ''),
    },
    sandboxStepMs: wholeNumber('SANDBOX_STEP_MS', env.SANDBOX_STEP_MS, 3000),
    paymentSweepMs: wholeNumber('PAYMENT_SWEEP_MS', env.PAYMENT_SWEEP_MS, 60_000),
    liveHeartbeatMs: Math.max(1000, wholeNumber('LIVE_HEARTBEAT_MS', env.LIVE_HEARTBEAT_MS, 25_000)),
    vapidSubject: vapidSubjectOf(env, env.PUBLIC_URL || ''),
    pushAllowLoopback: env.PUSH_ALLOW_LOOPBACK === 'true',
    mail: {
      smtpUrl: env.SMTP_URL || undefined,
      from: env.MAIL_FROM || `no-reply@${host === '0.0.0.0' ? 'localhost' : host}`,
      pollMs: Math.max(50, wholeNumber('MAIL_POLL_MS', env.MAIL_POLL_MS, 2000)),
      retryBaseMs: wholeNumber('MAIL_RETRY_BASE_MS', env.MAIL_RETRY_BASE_MS, 30_000),
    },
    totpEncryptionKey: env.TOTP_ENCRYPTION_KEY || undefined,
    income: {
      schedule: env.INCOME_SCHEDULE || '5 0 * * *',
      retryMs: wholeNumber('INCOME_RETRY_MS', env.INCOME_RETRY_MS, 10 * 60_000),
      catchUpDays: Math.max(1, wholeNumber('INCOME_CATCH_UP_DAYS', env.INCOME_CATCH_UP_DAYS, 30)),
      leaseMs: Math.max(500, wholeNumber('INCOME_LEASE_MS', env.INCOME_LEASE_MS, 60_000)),
      chunkSize: Math.max(1, wholeNumber('INCOME_CHUNK_SIZE', env.INCOME_CHUNK_SIZE, 5000)),
      chunkPauseMs: wholeNumber('INCOME_CHUNK_PAUSE_MS', env.INCOME_CHUNK_PAUSE_MS, 0),
    },
    salary: {
      schedule: env.SALARY_SCHEDULE || '10 0 1 * *',
      retryMs: wholeNumber('SALARY_RETRY_MS', env.SALARY_RETRY_MS, 10 * 60_000),
      catchUpMonths: Math.max(1, wholeNumber('SALARY_CATCH_UP_MONTHS', env.SALARY_CATCH_UP_MONTHS, 12)),
      leaseMs: Math.max(500, wholeNumber('SALARY_LEASE_MS', env.SALARY_LEASE_MS, 60_000)),
      payPauseMs: wholeNumber('SALARY_PAY_PAUSE_MS', env.SALARY_PAY_PAUSE_MS, 0),
    },
    web3: web3ConfigOf(env),
    metricsToken: metricsTokenOf(env.METRICS_TOKEN),
    shutdown: {
      delayMs: wholeNumber('SHUTDOWN_DELAY_MS', env.SHUTDOWN_DELAY_MS, 5000),
      timeoutMs: Math.max(1000, wholeNumber('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 20_000)),
    },
    warmUp: onOff('WARM_UP', env.WARM_UP, true),
    passwordHashCost: passwordHashCostOf(env.PASSWORD_HASH_COST),
  };
  const refusals = productionRefusals(env, config);
  if (refusals.length > 0)
    throw new Error(
      [`NODE_ENV=production refuses ${refusals.length} unsafe setting(s):`, ...refusals].join('\n'),
    );
  return config;
}

/**
 * What a production server must not start with, one line each, all of them at once (one edit of the
 * environment file fixes them all): the sandbox lets any member create money; without a mail server
 * every e-mailed code and password-reset link is written to the log in clear text; over http the
 * session cookie cannot be Secure and no HSTS is sent.
 */
export function productionRefusals(env: NodeJS.ProcessEnv, config: Config): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const refusals: string[] = [];
  if (!env.PAYMENT_PROVIDER)
    refusals.push(
      'PAYMENT_PROVIDER must be set when NODE_ENV=production: nowpayments, or sandbox together with ALLOW_SANDBOX_PAYMENTS=true (the sandbox lets any member create money)',
    );
  else if (config.paymentProvider === 'sandbox' && env.ALLOW_SANDBOX_PAYMENTS !== 'true')
    refusals.push(
      'PAYMENT_PROVIDER=sandbox lets any member create money: with NODE_ENV=production it needs ALLOW_SANDBOX_PAYMENTS=true',
    );
  if (!config.mail.smtpUrl)
    refusals.push(
      'SMTP_URL must be set when NODE_ENV=production: without a mail server every e-mailed code and password-reset link is written to the log in clear text',
    );
  if (config.passwordHashCost !== 'production')
    refusals.push(
      `PASSWORD_HASH_COST=${config.passwordHashCost} is for tests: with NODE_ENV=production passwords are hashed at the production cost (leave it unset)`,
    );
  if (!config.publicUrl.startsWith('https://'))
    refusals.push(
      `PUBLIC_URL must be an https:// address when NODE_ENV=production, got ${config.publicUrl}: over http the session cookie is not Secure and no HSTS is sent`,
    );
  return refusals;
}

function passwordHashCostOf(value: string | undefined): Config['passwordHashCost'] {
  if (!value || value === 'production') return 'production';
  if (value === 'test') return 'test';
  throw new Error(`PASSWORD_HASH_COST must be production or test, got ${value}`);
}

/** Settings that start but deserve a look, one line each, logged at start. */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (typeof config.trustProxy === 'number' && !isLoopback(config.host))
    warnings.push(
      `TRUST_PROXY=${config.trustProxy} believes that many X-Forwarded-For hops from whoever connects, and HOST=${config.host} lets clients connect directly: they could choose their own address (and dodge every per-address limit). Name the proxies' addresses (TRUST_PROXY=10.0.0.5) or listen on 127.0.0.1`,
    );
  return warnings;
}

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));

function onOff(name: string, value: string | undefined, fallback: boolean): boolean {
  const text = value?.trim() ?? '';
  if (text === '') return fallback;
  if (text === 'on') return true;
  if (text === 'off') return false;
  throw new Error(`${name} must be on or off, got ${value}`);
}

/** A guessable token would open the metrics (routes, volumes, process details) to anyone who tries. */
function metricsTokenOf(value: string | undefined): string | undefined {
  const token = value?.trim() || undefined;
  if (token !== undefined && !/^[\x21-\x7e]{32,}$/.test(token))
    throw new Error(
      'METRICS_TOKEN must be at least 32 printable characters without spaces (e.g. openssl rand -hex 32)',
    );
  return token;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * BSC_RPC_URL needs USDT_CONTRACT and DEPOSIT_ADDRESS (a chain check with no token or address to look
 * for would credit nothing, or anything); each is refused at start when malformed rather than at the
 * first deposit.
 */
export function web3ConfigOf(env: NodeJS.ProcessEnv): Web3Config {
  const rpcUrl = env.BSC_RPC_URL?.trim() || undefined;
  const address = (name: string, value: string | undefined) => {
    const text = value?.trim() || undefined;
    if (text !== undefined && !EVM_ADDRESS.test(text))
      throw new Error(`${name} must be an address: 0x followed by 40 hexadecimal characters, got ${text}`);
    return text?.toLowerCase();
  };
  const tokenContract = address('USDT_CONTRACT', env.USDT_CONTRACT);
  const depositAddress = address('DEPOSIT_ADDRESS', env.DEPOSIT_ADDRESS);
  if (rpcUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(rpcUrl);
    } catch {}
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new Error('BSC_RPC_URL must be an http(s) URL of a BNB Smart Chain JSON-RPC endpoint');
    if (!tokenContract || !depositAddress)
      throw new Error(
        'BSC_RPC_URL needs USDT_CONTRACT and DEPOSIT_ADDRESS: the token and the address to look for',
      );
  }
  const projectId = env.WALLETCONNECT_PROJECT_ID?.trim() || undefined;
  if (projectId !== undefined && !/^[0-9a-zA-Z_-]{8,64}$/.test(projectId))
    throw new Error('WALLETCONNECT_PROJECT_ID must be the project id from the WalletConnect dashboard');
  const relayUrl = env.WALLETCONNECT_RELAY_URL?.trim() || undefined;
  if (relayUrl !== undefined && !/^wss?:\/\/[^\s]+$/.test(relayUrl))
    throw new Error('WALLETCONNECT_RELAY_URL must be a ws:// or wss:// URL of a WalletConnect relay');
  return {
    rpcUrl,
    tokenContract,
    depositAddress,
    walletConnectProjectId: projectId,
    walletConnectRelayUrl: relayUrl,
    pollMs: wholeNumber('WEB3_POLL_MS', env.WEB3_POLL_MS, 30_000),
  };
}

/**
 * The sandbox by default; production must name its provider, and the sandbox only with
 * ALLOW_SANDBOX_PAYMENTS=true, a public demo (productionRefusals).
 */
function paymentProviderOf(env: NodeJS.ProcessEnv): Config['paymentProvider'] {
  const value = env.PAYMENT_PROVIDER;
  if (!value || value === 'sandbox') return 'sandbox';
  if (value === 'nowpayments') return 'nowpayments';
  throw new Error(`PAYMENT_PROVIDER must be sandbox or nowpayments, got ${value}`);
}

// proxy-addr's names for the private ranges, accepted like addresses.
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: empty or false (no proxy), a hop count (1 behind one nginx), or a comma-separated list of
 * the proxies' addresses or CIDRs. `true` is refused: it would believe the leftmost X-Forwarded-For
 * entry, which the client writes itself, and every per-address limit could be dodged.
 */
export function trustProxyOf(value: string | undefined): Config['trustProxy'] {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true')
    throw new Error(
      'TRUST_PROXY=true would trust every address, so a client could choose its own address with X-Forwarded-For: set the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.5 or 10.0.0.0/8)',
    );
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk =
      prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!NAMED_RANGES.has(entry) && (family === 0 || !prefixOk || extra !== undefined))
      throw new Error(
        `TRUST_PROXY must be a number of proxies or a comma-separated list of their addresses or CIDRs, got ${entry || 'an empty entry'}`,
      );
  }
  return entries;
}

function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a whole number of milliseconds, got ${value}`);
  return n;
}

/** VAPID_SUBJECT, else an https PUBLIC_URL, else mailto:ADMIN_EMAIL (push services want a contact). */
function vapidSubjectOf(env: NodeJS.ProcessEnv, publicUrl: string): string {
  const subject = env.VAPID_SUBJECT || (publicUrl.startsWith('https://') ? publicUrl : '');
  if (subject) {
    if (!/^(https:\/\/|mailto:)/.test(subject))
      throw new Error(`VAPID_SUBJECT must be an https: URL or a mailto: address, got ${subject}`);
    return subject;
  }
  return `mailto:${env.ADMIN_EMAIL || 'webmaster@localhost'}`;
}
