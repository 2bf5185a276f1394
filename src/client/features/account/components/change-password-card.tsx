import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ACCOUNT_TEXT, changePasswordSchema } from '../../../../shared/account.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { changePassword } from '../api.ts';
import { deviceSessionsQuery } from '../sessions-api.ts';
import '../account.css';

/**
 * The profile's password card: the current password and a new one (the registration rules, checked on
 * the form by the shared schema first). The server ends every other session and mails the member.
 */
export function ChangePasswordCard() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const [serverError, setServerError] = useState('');
  const { errors, busy, submit } = useSchemaForm();
  const queryClient = useQueryClient();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setDone(false);
    void submit(
      changePasswordSchema,
      { current_password: current, password: next },
      async (input) => {
        await changePassword(input);
        setCurrent('');
        setNext('');
        setDone(true);
        // The other devices are signed out: the devices card shows this one alone.
        await queryClient.invalidateQueries({ queryKey: deviceSessionsQuery.queryKey });
      },
      setServerError,
    );
  }

  return (
    <section className="card" aria-labelledby="change-password-title">
      <h2 id="change-password-title">{ACCOUNT_TEXT.changeTitle}</h2>
      <p className="muted">{ACCOUNT_TEXT.changeIntro}</p>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <FormField
          label={ACCOUNT_TEXT.currentPassword}
          type="password"
          name="current_password"
          autoComplete="current-password"
          value={current}
          error={errors.current_password}
          disabled={busy}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <FormField
          label={ACCOUNT_TEXT.newPassword}
          type="password"
          name="password"
          autoComplete="new-password"
          value={next}
          error={errors.password}
          disabled={busy}
          onChange={(e) => setNext(e.target.value)}
        />
        <button type="submit" className="button primary block" disabled={busy}>
          {busy ? 'Saving...' : ACCOUNT_TEXT.changePassword}
        </button>
        {done ? (
          <p className="notice" role="status">
            {ACCOUNT_TEXT.changed}
          </p>
        ) : null}
      </form>
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </section>
  );
}
