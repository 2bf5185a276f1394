import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { NOTIFICATION_MESSAGES } from '../../../../shared/notifications.ts';
import { errorText } from '../../../lib/http.ts';
import { refreshNotifications, uploadBanner } from '../api.ts';

/** Spec 5: the banner uploads as soon as a file is chosen; the result goes to the form's dialogs. */
export function BannerUpload({
  onDone,
  onError,
}: {
  onDone: (message: string) => void;
  onError: (text: string) => void;
}) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  async function choose(input: HTMLInputElement) {
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    try {
      const result = await uploadBanner(file);
      await refreshNotifications(queryClient);
      onDone(result.message);
    } catch (error) {
      onError(errorText(error));
    } finally {
      setBusy(false);
      input.value = '';
    }
  }

  return (
    <div className="field">
      <label htmlFor={id}>{NOTIFICATION_MESSAGES.banner}</label>
      <input
        id={id}
        type="file"
        name="image"
        accept="image/png,image/jpeg,image/webp"
        disabled={busy}
        aria-describedby={`${id}-hint`}
        onChange={(e) => void choose(e.currentTarget)}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {busy ? NOTIFICATION_MESSAGES.bannerUploading : 'PNG, JPEG or WebP, at most 5 MB.'}
      </p>
    </div>
  );
}
