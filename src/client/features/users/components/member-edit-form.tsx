import { type FormEvent, useState } from 'react';
import {
  ACTIVE_FLAGS,
  type EditableField,
  type MemberWithBalance,
  OPEN_CLOSE,
  USER_MESSAGES,
  USER_ROLES,
  USER_STATUSES,
} from '../../../../shared/users.ts';
import { ApiError, errorText } from '../../../lib/http.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { saveMember } from '../api.ts';

type Fields = Record<EditableField, string>;

const fieldsOf = (m: MemberWithBalance): Fields => ({
  username: m.username,
  email: m.email,
  status: m.status,
  is_active: m.is_active,
  roi_status: m.roi_status,
  level_status: m.level_status,
  address: m.address ?? '',
  business: m.business,
  business_balance: m.business_balance,
  fullname: m.fullname,
  phone: m.phone,
  bep20: m.bep20 ?? '',
  trc20: m.trc20 ?? '',
});

const LABELS: Record<string, string> = {
  unblock: 'Unblock',
  block: 'Block',
  active: 'Active',
  inactive: 'Inactive',
  open: 'Open',
  close: 'Close',
  user: 'User',
  admin: 'Admin',
};

/**
 * The spec's edit form (spec 2 "Admin user detail", spec 5: no client validation; the server checks
 * every field and its messages land here). Only the edited fields are sent, with updated_at (spec 7).
 * The role is shown but cannot be changed; no admin screen shows or sets a password.
 */
export function MemberEditForm({
  member,
  onSaved,
  onFailed,
}: {
  member: MemberWithBalance;
  onSaved: (message: string) => void;
  onFailed: (message: string) => void;
}) {
  const initial = fieldsOf(member);
  const [fields, setFields] = useState<Fields>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const edited = Object.fromEntries(
      (Object.keys(fields) as EditableField[])
        .filter((key) => fields[key] !== initial[key])
        .map((key) => [key, fields[key]]),
    );
    setBusy(true);
    setErrors({});
    try {
      const { message } = await saveMember(member.id, edited);
      onSaved(message || USER_MESSAGES.updated);
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors());
      onFailed(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  const text = (key: EditableField, label: string, props: Record<string, unknown> = {}) => (
    <FormField
      label={label}
      name={key}
      value={fields[key]}
      error={errors[key]}
      disabled={busy}
      onChange={(e) => setFields({ ...fields, [key]: e.target.value })}
      {...props}
    />
  );
  const choice = (key: EditableField, label: string, options: readonly string[], hint?: string) => (
    <SelectField
      label={label}
      name={key}
      value={fields[key]}
      error={errors[key]}
      hint={hint}
      disabled={busy}
      onChange={(e) => setFields({ ...fields, [key]: e.target.value })}
    >
      {options.map((o) => (
        <option key={o} value={o}>
          {LABELS[o] ?? o}
        </option>
      ))}
    </SelectField>
  );

  return (
    <form className="card stack" onSubmit={submit} noValidate aria-labelledby="edit-title" aria-busy={busy}>
      <h2 id="edit-title">Edit member</h2>
      <div className="edit-grid">
        {text('fullname', 'Full name', { autoComplete: 'off' })}
        {text('username', 'Username', { autoComplete: 'off' })}
        {text('email', 'Email', { type: 'email', autoComplete: 'off' })}
        {text('phone', 'Phone', { type: 'tel', autoComplete: 'off' })}
        <SelectField label="Role" name="role" value={member.role} disabled hint={USER_MESSAGES.roleLocked}>
          {USER_ROLES.map((r) => (
            <option key={r} value={r}>
              {LABELS[r]}
            </option>
          ))}
        </SelectField>
        {choice('status', 'Status', USER_STATUSES, 'Blocking signs the member out at once.')}
        {choice('is_active', 'Active', ACTIVE_FLAGS)}
        {choice('roi_status', 'ROI status', OPEN_CLOSE)}
        {choice('level_status', 'Level status', OPEN_CLOSE)}
        {text('business', 'Business', {
          type: 'number',
          step: '0.01',
          min: '0',
          inputMode: 'decimal',
          hint: 'A display and override figure: saving never changes a wallet balance.',
        })}
        {text('business_balance', 'Business balance', {
          type: 'number',
          step: '0.01',
          min: '0',
          inputMode: 'decimal',
          hint: 'Money moves only through a balance adjustment, with a reason.',
        })}
        <div className="span-2">{text('address', 'Address', { autoComplete: 'off' })}</div>
        {text('bep20', 'BEP20 address', { autoComplete: 'off', spellCheck: false })}
        {text('trc20', 'TRC20 address', { autoComplete: 'off', spellCheck: false })}
      </div>
      <div className="row">
        <button type="submit" className="button primary" disabled={busy}>
          Save Changes
        </button>
      </div>
    </form>
  );
}
