import { useState } from 'react';
import type * as v from 'valibot';
import { validateForm } from './field-errors.ts';
import { ApiError, errorText } from './http.ts';

/**
 * The submit step every form shares: check the input with the shared schema the server validates
 * with (so a mistake shows on its field before any request is made), then send while the form is
 * busy; a refusal's field errors land on their inputs and its text goes to onError.
 */
export function useSchemaForm() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit<S extends v.GenericSchema>(
    schema: S,
    input: unknown,
    send: (output: v.InferOutput<S>) => Promise<void>,
    onError: (text: string) => void,
  ): Promise<void> {
    const parsed = validateForm(schema, input);
    if (parsed.errors) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await send(parsed.output);
    } catch (error) {
      if (error instanceof ApiError && error.body.errors?.length) setErrors(error.fieldErrors());
      onError(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return { errors, setErrors, busy, submit };
}
