import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  describeDefault,
  SETTING_DEFS,
  SETTING_NAMES,
  type SettingGroup,
  type SettingName,
  type Settings,
  SHOWN_IN_SECONDS,
  settingsUpdateSchema,
} from '../../../../shared/settings.ts';
import { saveSettings, settingsQuery } from '../../../lib/settings.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';

// /admin/settings: one form per group of settings (shared/settings.ts), each field with its unit,
// default and what it does. Only the values changed are sent; the server checks them with the same
// schema, applies them at once on every server process and writes before and after to the audit log.
// Durations travel in seconds and are typed in the unit the definition shows them in.

type FieldName = Exclude<SettingName, 'admin_two_factor_required'>;
type Fields = Partial<Record<FieldName, string>>;

const namesOf = (group: Exclude<SettingGroup, 'security'>) =>
  SETTING_NAMES.filter((n): n is FieldName => SETTING_DEFS[n].group === group);

/** The value as the admin types it: "10.00", "15" (minutes), "Member Platform". */
function shown(name: FieldName, settings: Settings): string {
  const def = SETTING_DEFS[name];
  const value = settings[name];
  return def.kind === 'seconds' ? String(Number(value) / SHOWN_IN_SECONDS[def.shownIn]) : String(value);
}

/** The typed value as the API takes it: seconds for a duration ('' or text stays as typed for the schema to refuse). */
function sent(name: FieldName, text: string): string | number {
  const def = SETTING_DEFS[name];
  if (def.kind !== 'seconds') return text.trim();
  const typed = text.trim();
  return typed === '' ? typed : Number(typed) * SHOWN_IN_SECONDS[def.shownIn];
}

const fieldsOf = (names: FieldName[], settings: Settings): Fields =>
  Object.fromEntries(names.map((name) => [name, shown(name, settings)]));

export function SettingsForm({
  group,
  title,
  note,
}: {
  group: Exclude<SettingGroup, 'security'>;
  title: string;
  note: string;
}) {
  const names = namesOf(group);
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery);
  const saved = settings.data?.settings;
  const [fields, setFields] = useState<Fields | null>(null);
  const [serverError, setServerError] = useState('');
  const { errors, busy, submit } = useSchemaForm();
  const headingId = useId();
  useEffect(() => {
    if (saved) setFields(fieldsOf(namesOf(group), saved));
  }, [saved, group]);

  const changed =
    saved && fields ? names.filter((name) => (fields[name] ?? '').trim() !== shown(name, saved)) : [];

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!fields || changed.length === 0) return;
    void submit(
      settingsUpdateSchema,
      Object.fromEntries(changed.map((name) => [name, sent(name, fields[name] ?? '')])),
      async (input) => {
        const answer = await saveSettings(input);
        queryClient.setQueryData(settingsQuery.queryKey, { settings: answer.settings });
        setFields(fieldsOf(names, answer.settings));
        toast.success(answer.message);
      },
      setServerError,
    );
  }

  return (
    <section className="card" aria-labelledby={headingId} data-testid={`${group}-settings`}>
      <h2 id={headingId}>{title}</h2>
      {settings.isPending || (!fields && !settings.isError) ? (
        <Spinner />
      ) : settings.isError || !fields ? (
        <QueryError error={settings.error} onRetry={() => void settings.refetch()} className="error-view" />
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate aria-busy={busy}>
          <p className="muted">{note}</p>
          {names.map((name) => {
            const def = SETTING_DEFS[name];
            const numeric = def.kind !== 'text';
            return (
              <FormField
                key={name}
                label={`${def.label} (${def.unit})`}
                name={name}
                type={def.kind === 'text' && 'format' in def ? 'email' : 'text'}
                inputMode={numeric ? 'decimal' : undefined}
                autoComplete="off"
                value={fields[name] ?? ''}
                onChange={(e) => setFields({ ...fields, [name]: e.target.value })}
                error={errors[name]}
                hint={`${def.help} Default: ${describeDefault(name)}.`}
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
