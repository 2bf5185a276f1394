import { type Kysely, PostgresAdapter, sql } from 'kysely';

// PostgreSQL only: a member-to-member transfer's writes as one function, so the endpoint sends one
// statement (its own transaction) instead of BEGIN, five statements and COMMIT, each a round trip.
// It does exactly what the SQLite path does in transfers.service.ts, in the same order: the daily
// counter (one guarded upsert), then the two accounts in the order the caller gives (account-id order,
// as every other ledger write takes its row locks), or the hold, then the immutable ledger row, then
// the Idempotency-Key record. Any refusal raises, and the whole statement is undone. SQLite keeps its
// transaction (one writer, nothing to save in round trips).

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function member_transfer(
      p_id text, p_debit text, p_credit text, p_debit_first boolean, p_amount bigint, p_phase text,
      p_kind text, p_reference text, p_description text, p_created_by text, p_created_at text,
      p_daily_user text, p_daily_day text, p_daily_limit bigint,
      p_key_owner text, p_key text, p_request_hash text, p_status_code integer, p_response_body text
    ) returns void language plpgsql as $$
    declare
      changed integer;
    begin
      if p_daily_user is not null then
        if p_amount > p_daily_limit then
          raise exception 'daily_limit';
        end if;
        insert into transfer_daily_totals (user_id, day, amount_cents)
          values (p_daily_user, p_daily_day, p_amount)
          on conflict (user_id, day) do update
          set amount_cents = transfer_daily_totals.amount_cents + excluded.amount_cents
          where transfer_daily_totals.amount_cents + excluded.amount_cents <= p_daily_limit;
        get diagnostics changed = row_count;
        if changed <> 1 then
          raise exception 'daily_limit';
        end if;
      end if;

      if p_phase = 'pending' then
        update ledger_accounts set held_cents = held_cents + p_amount
          where id = p_debit and (allow_negative = 1 or balance_cents - held_cents >= p_amount);
        get diagnostics changed = row_count;
        if changed <> 1 then
          raise exception 'insufficient_balance';
        end if;
      else
        for step in 1..2 loop
          if (step = 1) = p_debit_first then
            update ledger_accounts set balance_cents = balance_cents - p_amount
              where id = p_debit and (allow_negative = 1 or balance_cents - held_cents >= p_amount);
            get diagnostics changed = row_count;
            if changed <> 1 then
              raise exception 'insufficient_balance';
            end if;
          else
            update ledger_accounts set balance_cents = balance_cents + p_amount where id = p_credit;
            get diagnostics changed = row_count;
            if changed <> 1 then
              raise exception 'missing_account';
            end if;
          end if;
        end loop;
      end if;

      insert into ledger_transfers (id, debit_account_id, credit_account_id, amount_cents, phase,
        pending_id, kind, reference, description, created_by, created_at)
        values (p_id, p_debit, p_credit, p_amount, p_phase, null, p_kind, p_reference, p_description,
        p_created_by, p_created_at);

      if p_key is not null then
        insert into idempotency_keys (owner_id, key, request_hash, status_code, response_body, created_at)
          values (p_key_owner, p_key, p_request_hash, p_status_code, p_response_body, p_created_at);
      end if;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop function member_transfer(text, text, text, boolean, bigint, text, text, text, text, text,
    text, text, text, bigint, text, text, text, integer, text)`.execute(db);
}
