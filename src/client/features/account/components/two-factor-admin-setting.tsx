import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { settingsUpdateSchema } from '../../../../shared/settings.ts';
import { TWO_FACTOR_TEXT } from '../../../../shared/two-factor.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { saveSettings, settingsQuery, twoFactorStatusQuery } from '../api.ts';
import '../account.css';

/**
 * The admin setting "require two-factor sign-in for admins". The server refuses to turn it on for an
 * admin without their own (422), so nobody is locked out; its message shows as it is.
 */
export function TwoFactorAdminSetting() {
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery);
  const [required, setRequired] = useState(false);
  const [serverError, setServerError] = useState('');
  const { busy, submit } = useSchemaForm();
  const headingId = useId();
  const saved = settings.data?.settings.admin_two_factor_required;
  useEffect(() => {
    if (saved !== undefined) setRequired(saved);
  }, [saved]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(
      settingsUpdateSchema,
      { admin_two_factor_required: required },
      async (input) => {
        const answer = await saveSettings(input);
        queryClient.setQueryData(settingsQuery.queryKey, { settings: answer.settings });
        await queryClient.invalidateQueries({ queryKey: twoFactorStatusQuery.queryKey });
        toast.success(answer.message);
      },
      (text) => {
        setServerError(text);
        if (saved !== undefined) setRequired(saved);
      },
    );
  }

  return (
    <section className="card two-factor-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{TWO_FACTOR_TEXT.title}</h2>
      {settings.isPending ? (
        <Spinner />
      ) : settings.isError ? (
        <QueryError error={settings.error} onRetry={() => void settings.refetch()} className="error-view" />
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate aria-busy={busy}>
          <label className="check-row">
            <input
              type="checkbox"
              name="admin_two_factor_required"
              checked={required}
              disabled={busy}
              onChange={(e) => setRequired(e.target.checked)}
            />
            <span>{TWO_FACTOR_TEXT.requireForAdmins}</span>
          </label>
          <p className="muted">{TWO_FACTOR_TEXT.requireHelp}</p>
          <div className="two-factor-actions">
            <button type="submit" className="button primary" disabled={busy || required === saved}>
              {TWO_FACTOR_TEXT.save}
            </button>
          </div>
        </form>
      )}
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </section>
  );
}
