import { describe, expect, it } from 'vitest';
import { configWarnings, loadConfig, trustProxyOf } from './config.ts';

// What the server refuses to start with, what it warns about, and how TRUST_PROXY is read.

describe('TRUST_PROXY', () => {
  it('is off when unset, empty, false or 0', () => {
    for (const value of [undefined, '', 'false', '0']) expect(trustProxyOf(value)).toBe(false);
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('refuses true, which would let a client pick its own address, with a message saying what to set', () => {
    expect(() => trustProxyOf('true')).toThrow(/TRUST_PROXY=true .*number of proxies.*addresses/);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true/);
  });

  it('takes a hop count', () => {
    expect(trustProxyOf('1')).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it("takes the proxies' addresses and CIDRs, comma-separated, IPv4 or IPv6", () => {
    expect(trustProxyOf('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(trustProxyOf('10.0.0.5, 10.1.0.0/16,fd00::/8, ::1')).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      '::1',
    ]);
    expect(trustProxyOf('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
  });

  it.each(['yes', '*', '10.0.0.0/33', '10.0.0.1/8/1', 'nginx', '10.0.0.1,', '1.5', 'fd00::/129'])(
    'refuses %s',
    (value) => {
      expect(() => trustProxyOf(value)).toThrow(/TRUST_PROXY must be/);
    },
  );
});

/** What production needs besides the setting a test is about. */
const PRODUCTION = {
  NODE_ENV: 'production',
  PAYMENT_PROVIDER: 'nowpayments',
  SMTP_URL: 'smtp://127.0.0.1:25',
  PUBLIC_URL: 'https://platform.example.com',
};

/** The lines a refused start prints, one per unsafe setting (the first says how many). */
function refusalLines(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message.split('\n');
  }
  return [];
}

describe('PAYMENT_PROVIDER in production', () => {
  it('refuses to start without an explicit provider (the sandbox lets any member create money)', () => {
    expect(() => loadConfig({ ...PRODUCTION, PAYMENT_PROVIDER: '' })).toThrow(
      /PAYMENT_PROVIDER must be set when NODE_ENV=production/,
    );
  });

  it('refuses the sandbox unless ALLOW_SANDBOX_PAYMENTS=true', () => {
    const env = { ...PRODUCTION, PAYMENT_PROVIDER: 'sandbox' };
    expect(() => loadConfig(env)).toThrow(/ALLOW_SANDBOX_PAYMENTS=true/);
    expect(() => loadConfig({ ...env, ALLOW_SANDBOX_PAYMENTS: 'yes' })).toThrow(/ALLOW_SANDBOX_PAYMENTS/);
    expect(loadConfig({ ...env, ALLOW_SANDBOX_PAYMENTS: 'true' }).paymentProvider).toBe('sandbox');
  });

  it('starts with nowpayments named, and keeps the sandbox default outside production', () => {
    expect(loadConfig(PRODUCTION).paymentProvider).toBe('nowpayments');
    expect(loadConfig({}).paymentProvider).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'development' }).paymentProvider).toBe('sandbox');
  });
});

describe('PASSWORD_HASH_COST', () => {
  it('is the production cost unless a test server asks for less; production refuses less', () => {
    expect(loadConfig({}).passwordHashCost).toBe('production');
    expect(loadConfig({ PASSWORD_HASH_COST: 'test' }).passwordHashCost).toBe('test');
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'cheap' })).toThrow(
      /PASSWORD_HASH_COST must be production or test/,
    );
    expect(loadConfig(PRODUCTION).passwordHashCost).toBe('production');
    expect(() => loadConfig({ ...PRODUCTION, PASSWORD_HASH_COST: 'test' })).toThrow(
      /PASSWORD_HASH_COST=test is for tests/,
    );
  });
});

describe('the other unsafe settings production refuses, one line each', () => {
  it('refuses no SMTP_URL: every e-mailed code and reset link would be written to the log', () => {
    expect(refusalLines({ ...PRODUCTION, SMTP_URL: '' })).toEqual([
      'NODE_ENV=production refuses 1 unsafe setting(s):',
      expect.stringMatching(/^SMTP_URL must be set when NODE_ENV=production: .*log in clear text$/),
    ]);
  });

  it('refuses a PUBLIC_URL that is not https (no Secure cookies, no HSTS), also when left to its http default', () => {
    for (const publicUrl of ['http://platform.example.com', '']) {
      const lines = refusalLines({ ...PRODUCTION, PUBLIC_URL: publicUrl });
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(
        /^PUBLIC_URL must be an https:\/\/ address when NODE_ENV=production, got http:/,
      );
      expect(lines[1]).toMatch(/not Secure and no HSTS/);
    }
  });

  it('names every unsafe setting at once, each on its own line', () => {
    const lines = refusalLines({ NODE_ENV: 'production' });
    expect(lines[0]).toBe('NODE_ENV=production refuses 3 unsafe setting(s):');
    expect(lines.slice(1).map((line) => line.split(' ')[0])).toEqual([
      'PAYMENT_PROVIDER',
      'SMTP_URL',
      'PUBLIC_URL',
    ]);
  });

  it('starts with all of them set, and asks for none of them outside production', () => {
    expect(loadConfig(PRODUCTION).publicUrl).toBe('https://platform.example.com');
    expect(loadConfig({ NODE_ENV: 'development' }).mail.smtpUrl).toBeUndefined();
    expect(loadConfig({}).publicUrl).toBe('http://127.0.0.1:8080');
  });
});

describe('start warnings', () => {
  it('warns about a hop-count TRUST_PROXY on a HOST that clients can reach directly', () => {
    const warnings = configWarnings(loadConfig({ TRUST_PROXY: '1', HOST: '0.0.0.0' }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^TRUST_PROXY=1 .*HOST=0\.0\.0\.0 .*could choose their own address/);
    expect(configWarnings(loadConfig({ TRUST_PROXY: '2', HOST: '10.0.0.7' }))).toHaveLength(1);
  });

  it('says nothing on loopback, or when the proxies are named by address', () => {
    for (const host of ['127.0.0.1', '::1', 'localhost'])
      expect(configWarnings(loadConfig({ TRUST_PROXY: '1', HOST: host }))).toEqual([]);
    expect(configWarnings(loadConfig({ TRUST_PROXY: '10.0.0.5', HOST: '0.0.0.0' }))).toEqual([]);
    expect(configWarnings(loadConfig({ HOST: '0.0.0.0' }))).toEqual([]);
  });
});

describe('on-chain deposits (BSC_RPC_URL, USDT_CONTRACT, DEPOSIT_ADDRESS, WALLETCONNECT_PROJECT_ID)', () => {
  const token = '0x55d398326f99059fF775485246999027B3197955';
  const address = '0x1111111111111111111111111111111111111111';

  it('is off (every deposit waits for an admin) when nothing is set', () => {
    expect(loadConfig({}).web3).toEqual({
      rpcUrl: undefined,
      tokenContract: undefined,
      depositAddress: undefined,
      walletConnectProjectId: undefined,
      pollMs: 30_000,
    });
  });

  it('keeps addresses in lower case', () => {
    const web3 = loadConfig({
      BSC_RPC_URL: 'https://rpc.example',
      USDT_CONTRACT: token,
      DEPOSIT_ADDRESS: address,
    }).web3;
    expect(web3).toMatchObject({ rpcUrl: 'https://rpc.example', tokenContract: token.toLowerCase() });
  });

  it('refuses an RPC without the token and address to look for, a malformed address or URL', () => {
    expect(() => loadConfig({ BSC_RPC_URL: 'https://rpc.example' })).toThrow(
      /needs USDT_CONTRACT and DEPOSIT_ADDRESS/,
    );
    expect(() => loadConfig({ DEPOSIT_ADDRESS: '0x1234' })).toThrow(/DEPOSIT_ADDRESS must be an address/);
    expect(() =>
      loadConfig({ BSC_RPC_URL: 'ftp://rpc.example', USDT_CONTRACT: token, DEPOSIT_ADDRESS: address }),
    ).toThrow(/BSC_RPC_URL must be an http\(s\) URL/);
    expect(() => loadConfig({ WALLETCONNECT_PROJECT_ID: 'has spaces in it' })).toThrow(
      /WALLETCONNECT_PROJECT_ID/,
    );
  });
});

describe('METRICS_TOKEN', () => {
  it('is off (no token) when unset or empty', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '  ' }).metricsToken).toBeUndefined();
  });

  it('refuses a short or spaced token at start, naming the variable', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'secret' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: `${'a'.repeat(20)} ${'b'.repeat(20)}` })).toThrow(
      /METRICS_TOKEN/,
    );
  });

  it('takes a token of 32 printable characters or more', () => {
    const token = 'f'.repeat(64);
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
  });
});

describe('SHUTDOWN_DELAY_MS, SHUTDOWN_TIMEOUT_MS and WARM_UP (restarts)', () => {
  it('pauses 5 s for the load balancer, then gives requests in flight 20 s, and warms up, by default', () => {
    expect(loadConfig({}).shutdown).toEqual({ delayMs: 5000, timeoutMs: 20_000 });
    expect(loadConfig({}).warmUp).toBe(true);
  });

  it('takes other values, 0 for no pause, and WARM_UP=off', () => {
    const config = loadConfig({ SHUTDOWN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '45000', WARM_UP: 'off' });
    expect(config.shutdown).toEqual({ delayMs: 0, timeoutMs: 45_000 });
    expect(config.warmUp).toBe(false);
    expect(loadConfig({ WARM_UP: 'on' }).warmUp).toBe(true);
  });

  it('refuses what is not a whole number of ms, or a WARM_UP other than on or off, naming the variable', () => {
    expect(() => loadConfig({ SHUTDOWN_DELAY_MS: '5s' })).toThrow(/SHUTDOWN_DELAY_MS must be/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '-1' })).toThrow(/SHUTDOWN_TIMEOUT_MS must be/);
    expect(() => loadConfig({ WARM_UP: 'false' })).toThrow(/WARM_UP must be on or off/);
  });
});
