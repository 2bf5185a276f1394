import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

type Labelled = { label: string; error?: string; hint?: string };
type FieldProps = InputHTMLAttributes<HTMLInputElement> & Labelled;

/** The label, hint and error around one control, with the error announced and tied to it for screen readers. */
function Field({
  label,
  error,
  hint,
  control,
}: Labelled & {
  control: (a11y: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const describedBy =
    [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input. */
export function FormField({ label, error, hint, ...input }: FieldProps) {
  return <Field label={label} error={error} hint={hint} control={(a11y) => <input {...a11y} {...input} />} />;
}

/** A labelled select; its options come as children. */
export function SelectField({
  label,
  error,
  hint,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & Labelled) {
  return (
    <Field label={label} error={error} hint={hint} control={(a11y) => <select {...a11y} {...select} />} />
  );
}

/** A labelled multi-line text box. */
export function TextAreaField({
  label,
  error,
  hint,
  ...textarea
}: TextareaHTMLAttributes<HTMLTextAreaElement> & Labelled) {
  return (
    <Field label={label} error={error} hint={hint} control={(a11y) => <textarea {...a11y} {...textarea} />} />
  );
}
