import { useEffect, useId, useRef, useState } from 'react';
import { UPLOADS } from '../../shared/messages.ts';

// The one optional-image field of the app (ticket images, deposit screenshots): a file input that
// previews the chosen picture (from memory, nothing is sent yet) and says at once when a file is not
// one the server takes. A null `file` empties the input.

/** Only what the server accepts, checked before sending (the server decides by the bytes). */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export function imageProblem(file: File): string | undefined {
  if (!IMAGE_TYPES.includes(file.type)) return UPLOADS.notAnImage;
  if (file.size > MAX_IMAGE_BYTES) return UPLOADS.tooLarge;
  return undefined;
}

export function ImageField({
  label,
  file,
  onFile,
  error,
  disabled,
  previewAlt = 'Chosen attachment',
  removeLabel = 'Remove image',
  compact = false,
}: {
  label: string;
  file: File | null;
  onFile: (file: File | null, problem?: string) => void;
  error?: string | undefined;
  disabled?: boolean;
  previewAlt?: string;
  removeLabel?: string;
  /** A thumbnail rather than a large preview. */
  compact?: boolean;
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
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        name="image"
        type="file"
        accept={IMAGE_TYPES.join(',')}
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
        <div className={`row image-preview${compact ? ' compact' : ''}`}>
          <img src={preview} alt={previewAlt} />
          <button type="button" className="button small" disabled={disabled} onClick={() => onFile(null)}>
            {removeLabel}
          </button>
        </div>
      ) : null}
    </div>
  );
}
