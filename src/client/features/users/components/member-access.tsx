import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import type * as v from 'valibot';
import { formatUsd } from '../../../../shared/money.ts';
import type { singleUserSchema } from '../../../../shared/users.ts';
import { api, errorText } from '../../../lib/http.ts';
import { FormField } from '../../../ui/form-field.tsx';

type Member = v.InferOutput<typeof singleUserSchema>['singleuser'];
type Change = { is_active: 'active' | 'inactive' } | { status: 'block' | 'unblock' };

async function loadMember(email: string): Promise<Member> {
  const { emailuser } = await api<{ emailuser: { id: string } }>(
    'GET',
    `/users?email=${encodeURIComponent(email.trim())}`,
  );
  const { singleuser } = await api<{ singleuser: Member }>('GET', `/users/${emailuser.id}`);
  return singleuser;
}

/**
 * Support staff switch a member's access: active (needed to send transfers, RULES.md) and blocked
 * (ends their sessions at once). Every change is written to the audit log by the server.
 */
export function MemberAccess() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [member, setMember] = useState<Member | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function find(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      setMember(await loadMember(email));
    } catch (err) {
      setMember(null);
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  async function change(next: Change) {
    if (!member) return;
    setBusy(true);
    setError('');
    try {
      await api('PUT', `/users/${member.id}`, { ...next, updated_at: new Date().toISOString() });
      setMember(await loadMember(member.email));
      void queryClient.invalidateQueries({ queryKey: ['users'] });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const active = member?.is_active === 'active';
  const blocked = member?.status === 'block';
  return (
    <section className="card" aria-labelledby="member-access-title">
      <h2 id="member-access-title">Member access</h2>
      <form className="lookup" onSubmit={find} noValidate>
        <FormField
          label="Member e-mail"
          name="access-email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setMember(null);
          }}
          error={error || undefined}
          disabled={busy}
        />
        <button type="submit" className="button" disabled={busy}>
          Find
        </button>
      </form>
      {member ? (
        <div className="stack" data-testid="member-access">
          <dl className="facts">
            <div>
              <dt>Member</dt>
              <dd>
                {member.fullname} ({member.username})
              </dd>
            </div>
            <div>
              <dt>Access</dt>
              <dd>
                <span className={`badge ${blocked ? 'red' : 'green'}`}>
                  {blocked ? 'Blocked' : 'Unblocked'}
                </span>{' '}
                <span className={`badge ${active ? 'green' : 'grey'}`} data-testid="member-activation">
                  {active ? 'Active' : 'Inactive'}
                </span>
              </dd>
            </div>
            {member.balance ? (
              <div>
                <dt>Balances</dt>
                <dd>
                  Active Wallet {formatUsd(member.balance.business)}, Income Working{' '}
                  {formatUsd(member.balance.working)}
                </dd>
              </div>
            ) : null}
          </dl>
          <p className="muted">
            Only active members can send transfers. Blocking signs the member out at once.
          </p>
          <div className="row">
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => change({ is_active: active ? 'inactive' : 'active' })}
            >
              {active ? 'Deactivate' : 'Activate'}
            </button>
            <button
              type="button"
              className={`button ${blocked ? '' : 'danger'}`}
              disabled={busy}
              onClick={() => change({ status: blocked ? 'unblock' : 'block' })}
            >
              {blocked ? 'Unblock' : 'Block'}
            </button>
            <Link to="/admin/check/profile/$id" params={{ id: member.id }} className="button">
              Open profile
            </Link>
          </div>
        </div>
      ) : null}
    </section>
  );
}
