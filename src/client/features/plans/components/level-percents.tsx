import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formatPercent } from '../../../../shared/money.ts';
import {
  DEFAULT_ACTIVATION_PERCENTS,
  DEFAULT_ROI_LEVEL_PERCENTS,
  type LevelSettings,
  levelPercentsInputSchema,
  MAX_LEVELS,
} from '../../../../shared/plans.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { type LevelList, levelSettingsQuery, saveLevelPercents } from '../api.ts';
import '../plans.css';

const listed = (percents: string[]) => percents.map((p) => formatPercent(p)).join(', ');

const LISTS: { which: LevelList; field: keyof LevelSettings; title: string; hint: string }[] = [
  {
    which: 'active',
    field: 'active_levels',
    title: 'Activation income',
    hint: `Paid once to the uplines from a top-up's amount, level 1 being the direct sponsor. Default: ${listed(DEFAULT_ACTIVATION_PERCENTS)}.`,
  },
  {
    which: 'invest',
    field: 'invest_levels',
    title: 'ROI level income',
    hint: `A share of a downline's ROI, level 1 being the direct sponsor. Default: ${listed(DEFAULT_ROI_LEVEL_PERCENTS)}.`,
  },
];

/** The two level lists, level 1 first; each is saved whole (an empty list turns that income off). */
export function LevelPercents() {
  const query = useQuery(levelSettingsQuery);
  if (query.isPending) return <Spinner label="Loading level percents" />;
  if (query.error) return <QueryError error={query.error} onRetry={() => query.refetch()} />;
  return (
    <div className="level-grid">
      {LISTS.map((list) => (
        <LevelEditor key={list.which} {...list} initial={query.data[list.field]} />
      ))}
    </div>
  );
}

function LevelEditor({
  which,
  field,
  title,
  hint,
  initial,
}: {
  which: LevelList;
  field: keyof LevelSettings;
  title: string;
  hint: string;
  initial: string[];
}) {
  const queryClient = useQueryClient();
  const [percents, setPercents] = useState<string[]>(initial);
  const { banner, success, error } = useAutoClearBanner();
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();
  const titleId = `levels-${which}-title`;

  const change = (index: number, value: string) =>
    setPercents((list) => list.map((old, i) => (i === index ? value : old)));

  function submit(event: FormEvent) {
    event.preventDefault();
    const list = percents.map((p) => p.trim());
    void submitWith(
      levelPercentsInputSchema,
      { percents: list },
      async () => {
        const result = await saveLevelPercents(which, list);
        setPercents(result.percents);
        queryClient.setQueryData(levelSettingsQuery.queryKey, (old) =>
          old ? { ...old, [field]: result.percents } : old,
        );
        success(result.message);
      },
      error,
    );
  }

  return (
    <section className="card stack" aria-labelledby={titleId} data-testid={`levels-${which}`}>
      <h2 id={titleId}>{title}</h2>
      <p className="muted">{hint}</p>
      <MessageBanner banner={banner} />
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        {percents.length === 0 ? <p className="muted">No levels: this income is off.</p> : null}
        <ol className="level-list">
          {percents.map((percent, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a level is its position, level 1 first
            <li key={index} className="level-row">
              <FormField
                label={`Level ${index + 1} %`}
                name={`percents.${index}`}
                inputMode="decimal"
                autoComplete="off"
                value={percent}
                onChange={(e) => change(index, e.target.value)}
                error={errors[`percents.${index}`]}
                disabled={busy}
              />
              <button
                type="button"
                className="button small"
                aria-label={`Remove level ${index + 1}`}
                onClick={() => {
                  setPercents((list) => list.filter((_, i) => i !== index));
                  setErrors({});
                }}
                disabled={busy}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
        {errors.percents ? (
          <p className="field-error" role="alert">
            {errors.percents}
          </p>
        ) : null}
        <div className="form-actions">
          <button
            type="button"
            className="button"
            onClick={() => setPercents((list) => [...list, ''])}
            disabled={busy || percents.length >= MAX_LEVELS}
          >
            Add level
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving...' : 'Save'}
          </button>
        </div>
      </form>
    </section>
  );
}
