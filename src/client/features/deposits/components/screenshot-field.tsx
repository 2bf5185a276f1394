import { useEffect, useId, useRef, useState } from 'react';
import { imageProblem } from '../api.ts';

/**
 * The optional screenshot: a file input that previews the chosen picture (from memory, nothing is sent
 * yet) and says at once when a file is not one the server takes. A null `file` empties the input.
 */
export function ScreenshotField({
  file,
  onFile,
  error,
  disabled,
}: {
  file: File | null;
  onFile: (file: File | null, problem?: string) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setPreview(null);
      if (input.current) input.current.value = '';
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>Screenshot of the payment (optional)</label>
      <input
        ref={input}
        id={id}
        name="image"
        type="file"
        accept="image/png,image/jpeg,image/webp"
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${error ? `${id}-error ` : ''}${id}-hint`}
        onChange={(event) => {
          const chosen = event.target.files?.[0] ?? null;
          onFile(chosen, chosen ? imageProblem(chosen) : undefined);
        }}
      />
      <p className="field-hint" id={`${id}-hint`}>
        PNG, JPEG or WebP, up to 5 MB
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {preview && !error ? (
        <div className="row deposit-screenshot-preview">
          <img src={preview} alt="Chosen screenshot" />
          <button type="button" className="button small" disabled={disabled} onClick={() => onFile(null)}>
            Remove screenshot
          </button>
        </div>
      ) : null}
    </div>
  );
}
