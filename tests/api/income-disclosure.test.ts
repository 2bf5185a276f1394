import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incomeDisclosure } from '../../src/server/modules/disclosure/disclosure.service.ts';
import { addDays } from '../../src/shared/dates.ts';
import { ApiClient, signedInAdminClient } from '../helpers/client.ts';
import { buy, createPlan, fund, member, runDate, today } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// GET /public/income-disclosure (issue 17 item 6): from the real ledger, the last 30 whole UTC days:
// how many members earned how much (every member counted, those who earned nothing too), the median,
// income paid against deposits received. Computed once a day.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

describe('GET /public/income-disclosure', () => {
  it('is public, counts every member and keeps the day’s answer', async () => {
    const res = await new ApiClient(server.baseUrl).get('/public/income-disclosure');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      to: addDays(today(), -1),
      from: addDays(today(), -30),
      members: 0,
      median: '0.00',
      income_paid: '0.00',
      deposits: '0.00',
    });
    expect(res.body.bands.map((b: { id: string }) => b.id)).toEqual([
      'none',
      'under_10',
      '10_100',
      '100_1000',
      'over_1000',
    ]);
    // Money moved since does not change today's answer: it is computed once a day.
    const m = await member(server, admin, undefined, { business: '50' });
    expect(m.id).toBeTruthy();
    const again = await new ApiClient(server.baseUrl).get('/public/income-disclosure');
    expect(again.body).toEqual(res.body);
  });

  it('bands the members by the income the ledger paid them, with the median, income and deposits', async () => {
    // Today's money counts in tomorrow's disclosure: the figures are read as of tomorrow.
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const top = await member(server, admin, undefined, { business: '5000' });
    const earners = [
      await member(server, admin, top, { business: '500' }), // ROI 5.00 a day
      await member(server, admin, top, { business: '2000' }), // ROI 20.00
    ];
    await buy(earners[0] as never, planId, '500');
    await buy(earners[1] as never, planId, '2000');
    await buy(top, planId, '5000'); // ROI 50.00, plus activation income from nobody above
    const run = await runDate(admin, today());
    expect(run.status, run.text).toBe(200);
    await fund(admin, top.id, '10');

    const tomorrow = new Date(Date.parse(`${addDays(today(), 1)}T12:00:00Z`));
    const d = await incomeDisclosure(server.db, tomorrow);
    // Members: the first test's one, top, the two earners. top also earns activation income (5% of
    // 500 + 2000 = 125.00) and level income on their ROI (10% of 5.00 + 20.00 = 2.50): 177.50 in all.
    expect(d.members).toBe(4);
    const band = (id: string) => d.bands.find((b) => b.id === id);
    expect(band('none')).toMatchObject({ members: 1, share_percent: '25.00' });
    expect(band('under_10')).toMatchObject({ members: 1 });
    expect(band('10_100')).toMatchObject({ members: 1 });
    expect(band('100_1000')).toMatchObject({ members: 1 });
    expect(band('over_1000')).toMatchObject({ members: 0, share_percent: '0.00' });
    // Ordered 0, 5.00, 20.00, 177.50: the median is the mean of 5.00 and 20.00.
    expect(d.median).toBe('12.50');
    expect(d.income_paid).toBe('202.50');
    // Deposits: money in through payments; adjustments are not deposits.
    expect(d.deposits).toBe('0.00');
    expect(d.to).toBe(today());
  });
});
