import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  anyCodeSchema,
  TWO_FACTOR_TEXT,
  type TwoFactorSetup,
  totpCodeSchema,
} from '../../../../shared/two-factor.ts';
import { errorText } from '../../../lib/http.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { confirmTwoFactor, startTwoFactorSetup, turnOffTwoFactor, twoFactorStatusQuery } from '../api.ts';
import '../account.css';

const QR_PX = 220;

async function renderQr(text: string): Promise<string> {
  // Loaded only while setting up: the QR library stays out of every other download.
  const module = await import('qrcode');
  const qr = (module as unknown as { default?: typeof module }).default ?? module;
  return qr.toDataURL(text, { errorCorrectionLevel: 'M', width: QR_PX, margin: 2, type: 'image/png' });
}

/** The otpauth:// URI as a QR code for the authenticator app. */
function SetupQr({ uri }: { uri: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    renderQr(uri).then(
      (next) => current && setUrl(next),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [uri]);
  if (url)
    return (
      <img
        className="two-factor-qr"
        src={url}
        width={QR_PX}
        height={QR_PX}
        alt="QR code for your authenticator app"
        data-otpauth-uri={uri}
      />
    );
  if (failed) return null;
  return <div className="two-factor-qr placeholder" role="status" aria-label="Drawing the QR code" />;
}

/** One field and its buttons: the card's forms all take a code. */
function CodeForm({
  label,
  schema,
  submitText,
  danger,
  send,
  children,
}: {
  label: string;
  schema: typeof totpCodeSchema | typeof anyCodeSchema;
  submitText: string;
  danger?: boolean;
  send: (code: string) => Promise<void>;
  children?: React.ReactNode;
}) {
  const [code, setCode] = useState('');
  const [serverError, setServerError] = useState('');
  const { errors, busy, submit } = useSchemaForm();
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(schema, { code }, (input) => send(input.code), setServerError);
  }
  return (
    <form className="form two-factor-form" onSubmit={onSubmit} noValidate aria-busy={busy}>
      <FormField
        label={label}
        name="code"
        autoComplete="one-time-code"
        inputMode={schema === totpCodeSchema ? 'numeric' : 'text'}
        autoCapitalize="off"
        spellCheck={false}
        maxLength={schema === totpCodeSchema ? 6 : 11}
        value={code}
        error={errors.code}
        disabled={busy}
        onChange={(e) => setCode(e.target.value)}
      />
      <div className="two-factor-actions">
        <button type="submit" className={`button ${danger ? 'danger' : 'primary'}`} disabled={busy}>
          {submitText}
        </button>
        {children}
      </div>
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </form>
  );
}

/** The ten recovery codes, shown once right after turning on, with Copy. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast.success(TWO_FACTOR_TEXT.copied);
    } catch (error) {
      toast.error(errorText(error));
    }
  }
  return (
    <div className="two-factor-recovery">
      <h3>{TWO_FACTOR_TEXT.recoveryTitle}</h3>
      <p>{TWO_FACTOR_TEXT.recoveryHelp}</p>
      <ol className="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="two-factor-actions">
        <button type="button" className="button" onClick={() => void copy()}>
          {TWO_FACTOR_TEXT.copy}
        </button>
        <button type="button" className="button primary" onClick={onDone}>
          {TWO_FACTOR_TEXT.done}
        </button>
      </div>
    </div>
  );
}

/**
 * Two-factor sign-in for the signed-in person (member on the profile, admin on Settings): turn on
 * (QR code, key for manual entry, confirm with a code, ten recovery codes once) and turn off with a
 * code. Self-contained: its own query and section, placed wherever a page wants it.
 */
export function TwoFactorCard({ title = TWO_FACTOR_TEXT.title }: { title?: string }) {
  const queryClient = useQueryClient();
  const status = useQuery(twoFactorStatusQuery);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);
  const [serverError, setServerError] = useState('');
  const headingId = useId();
  // The status is refreshed only once the codes are put away: a page that shows something else once
  // it is on (the admin area) would otherwise take them off the screen before they were read.
  const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQuery.queryKey });

  async function start() {
    setStarting(true);
    try {
      setSetup(await startTwoFactorSetup());
    } catch (error) {
      setServerError(errorText(error));
    } finally {
      setStarting(false);
    }
  }

  const enabled = status.data?.enabled ?? false;
  let body: React.ReactNode;
  if (codes) {
    body = (
      <RecoveryCodes
        codes={codes}
        onDone={() => {
          setCodes(null);
          void refresh();
        }}
      />
    );
  } else if (status.isPending) {
    body = <Spinner />;
  } else if (status.isError) {
    body = <QueryError error={status.error} onRetry={() => void status.refetch()} className="error-view" />;
  } else if (enabled) {
    body = (
      <>
        <p className="muted">{TWO_FACTOR_TEXT.recoveryLeft(status.data.recovery_codes_left)}</p>
        <CodeForm
          label={TWO_FACTOR_TEXT.turnOffCode}
          schema={anyCodeSchema}
          submitText={TWO_FACTOR_TEXT.turnOff}
          danger
          send={async (code) => {
            toast.success((await turnOffTwoFactor({ code })).message);
            await refresh();
          }}
        />
      </>
    );
  } else if (setup) {
    body = (
      <>
        <p>{TWO_FACTOR_TEXT.scan}</p>
        <SetupQr uri={setup.otpauth_uri} />
        <p className="two-factor-secret">
          <span className="muted">{TWO_FACTOR_TEXT.secretLabel}</span>
          <code data-testid="two-factor-secret">{setup.secret}</code>
        </p>
        <CodeForm
          label={TWO_FACTOR_TEXT.confirmCode}
          schema={totpCodeSchema}
          submitText={TWO_FACTOR_TEXT.confirm}
          send={async (code) => {
            const answer = await confirmTwoFactor({ code });
            toast.success(answer.message);
            setSetup(null);
            setCodes(answer.recovery_codes);
          }}
        >
          <button type="button" className="button" onClick={() => setSetup(null)}>
            {TWO_FACTOR_TEXT.cancel}
          </button>
        </CodeForm>
      </>
    );
  } else {
    body = (
      <>
        <p>{TWO_FACTOR_TEXT.intro}</p>
        <div className="two-factor-actions">
          <button type="button" className="button primary" disabled={starting} onClick={() => void start()}>
            {TWO_FACTOR_TEXT.start}
          </button>
        </div>
      </>
    );
  }

  return (
    <section className="card two-factor-card" aria-labelledby={headingId}>
      <div className="two-factor-head">
        <h2 id={headingId}>{title}</h2>
        {status.data && !codes ? (
          <span className={`badge ${enabled ? 'green' : 'grey'}`} data-testid="two-factor-status">
            {enabled ? TWO_FACTOR_TEXT.on : TWO_FACTOR_TEXT.off}
          </span>
        ) : null}
      </div>
      {body}
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </section>
  );
}
