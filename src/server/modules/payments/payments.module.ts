import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { nowPaymentsProvider } from './nowpayments.provider.ts';
import { registerPaymentsRoutes } from './payments.routes.ts';
import { type PaymentsDeps, sweepOpenPayments } from './payments.service.ts';
import { sandboxProvider } from './sandbox.provider.ts';

/** Chooses the provider from the configuration (the only place that knows which one runs) and wires the routes and the background check. */
export function registerPayments(app: FastifyInstance, db: Db, config: Config): void {
  const sandbox =
    config.paymentProvider === 'sandbox' ? sandboxProvider(db, { stepMs: config.sandboxStepMs }) : undefined;
  if (config.paymentProvider === 'nowpayments' && !config.nowpayments.apiKey)
    throw new Error('PAYMENT_PROVIDER=nowpayments needs NOWPAYMENTS_API_KEY');
  const deps: PaymentsDeps = {
    db,
    provider:
      sandbox ??
      nowPaymentsProvider({ apiKey: config.nowpayments.apiKey ?? '', baseUrl: config.nowpayments.baseUrl }),
    sandbox,
    ipnSecret: config.nowpayments.ipnSecret,
    publicUrl: config.publicUrl,
    log: app.log,
  };
  app.register(async (api) => registerPaymentsRoutes(api, deps), { prefix: '/api/v1' });
  if (config.paymentSweepMs > 0) {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      sweepOpenPayments(deps)
        .catch((error) => app.log.warn({ err: error }, 'payment sweep failed'))
        .finally(() => {
          running = false;
        });
    }, config.paymentSweepMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
}
