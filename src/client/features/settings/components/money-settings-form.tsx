import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  SETTING_DEFS,
  SETTING_NAMES,
  type SettingName,
  type Settings,
  settingsUpdateSchema,
} from '../../../../shared/settings.ts';
import { saveSettings, settingsQuery } from '../../../lib/settings.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';

// /admin/settings: the money rules an admin changes (shared/settings.ts), each with its unit, default
// and what it does. Only the values changed are sent; the server checks them with the same schema,
// applies them at once on every server process and writes before and after to the audit log.

type NumberName = Exclude<SettingName, 'admin_two_factor_required'>;
const NUMBER_NAMES = SETTING_NAMES.filter((n): n is NumberName => SETTING_DEFS[n].kind !== 'boolean');
type Fields = Record<NumberName, string>;

const fieldsOf = (settings: Settings): Fields =>
  Object.fromEntries(NUMBER_NAMES.map((name) => [name, settings[name]])) as Fields;

export function MoneySettingsForm() {
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery);
  const saved = settings.data?.settings;
  const [fields, setFields] = useState<Fields | null>(null);
  const [serverError, setServerError] = useState('');
  const { errors, busy, submit } = useSchemaForm();
  const headingId = useId();
  useEffect(() => {
    if (saved) setFields(fieldsOf(saved));
  }, [saved]);

  const changed = saved && fields ? NUMBER_NAMES.filter((name) => fields[name].trim() !== saved[name]) : [];

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!fields || changed.length === 0) return;
    void submit(
      settingsUpdateSchema,
      Object.fromEntries(changed.map((name) => [name, fields[name]])),
      async (input) => {
        const answer = await saveSettings(input);
        queryClient.setQueryData(settingsQuery.queryKey, { settings: answer.settings });
        setFields(fieldsOf(answer.settings));
        toast.success(answer.message);
      },
      setServerError,
    );
  }

  return (
    <section className="card" aria-labelledby={headingId} data-testid="money-settings">
      <h2 id={headingId}>Money rules</h2>
      {settings.isPending || (!fields && !settings.isError) ? (
        <Spinner />
      ) : settings.isError || !fields ? (
        <QueryError error={settings.error} onRetry={() => void settings.refetch()} className="error-view" />
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate aria-busy={busy}>
          <p className="muted">
            A change applies to the next transfer, withdrawal request or CTO payment, on every server at once;
            what was already sent, held or paid keeps the values it was made with.
          </p>
          {NUMBER_NAMES.map((name) => {
            const def = SETTING_DEFS[name];
            return (
              <FormField
                key={name}
                label={`${def.label} (${def.unit})`}
                name={name}
                inputMode="decimal"
                autoComplete="off"
                value={fields[name]}
                onChange={(e) => setFields({ ...fields, [name]: e.target.value })}
                error={errors[name]}
                hint={`${def.help} Default: ${def.kind === 'money' ? `$${def.default}` : `${def.default}%`}.`}
                disabled={busy}
              />
            );
          })}
          <button type="submit" className="button primary" disabled={busy || changed.length === 0}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </form>
      )}
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </section>
  );
}
