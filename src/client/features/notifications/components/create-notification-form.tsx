import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import '../notifications.css';
import {
  createNotificationSchema,
  NOTIFICATION_MESSAGES,
  NOTIFICATION_TYPES,
  type RecipientCandidate,
} from '../../../../shared/notifications.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog, SuccessDialog } from '../../../ui/dialogs.tsx';
import { FormField, SelectField, TextAreaField } from '../../../ui/form-field.tsx';
import { createNotification, refreshNotifications } from '../api.ts';
import { BannerUpload } from './banner-upload.tsx';
import { RecipientPicker } from './recipient-picker.tsx';

const TYPE_LABELS: Record<(typeof NOTIFICATION_TYPES)[number], string> = {
  notification: 'Notification',
  site_popup: 'Site pop-up',
};

const EMPTY = { title: '', message: '', type: 'notification', users: true };

/** /admin/notifications (spec 2 "Admin Create Notification", spec 5, spec 8). */
export function CreateNotificationForm() {
  const queryClient = useQueryClient();
  const { errors, setErrors, busy, submit } = useSchemaForm();
  const [fields, setFields] = useState(EMPTY);
  const [chosen, setChosen] = useState<RecipientCandidate[]>([]);
  const [success, setSuccess] = useState('');
  const [failure, setFailure] = useState('');

  function setAllUsers(users: boolean) {
    setFields((f) => ({ ...f, users }));
    // Spec 5: choosing All Users clears the chosen users.
    if (users) setChosen([]);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    await submit(
      createNotificationSchema,
      { ...fields, recipients: fields.users ? [] : chosen.map((u) => u.id) },
      async (input) => {
        const result = await createNotification(input);
        await refreshNotifications(queryClient);
        // Spec 5: the form resets after submit.
        setFields(EMPTY);
        setChosen([]);
        setErrors({});
        setSuccess(result.message);
      },
      setFailure,
    );
  }

  return (
    <section className="card" aria-labelledby="create-notification-title">
      <h2 id="create-notification-title">{NOTIFICATION_MESSAGES.createTitle}</h2>
      <form className="form stack" noValidate onSubmit={(e) => void onSubmit(e)}>
        <FormField
          label="Title"
          name="title"
          value={fields.title}
          onChange={(e) => setFields({ ...fields, title: e.target.value })}
          error={errors.title}
          disabled={busy}
        />
        <TextAreaField
          label="Message"
          name="message"
          rows={4}
          value={fields.message}
          onChange={(e) => setFields({ ...fields, message: e.target.value })}
          error={errors.message}
          disabled={busy}
        />
        <SelectField
          label="Type"
          name="type"
          value={fields.type}
          onChange={(e) => setFields({ ...fields, type: e.target.value })}
          error={errors.type}
          disabled={busy}
        >
          <option value="">Select a type</option>
          {NOTIFICATION_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </SelectField>
        <div>
          <label className="row">
            <input
              type="checkbox"
              name="users"
              checked={fields.users}
              onChange={(e) => setAllUsers(e.target.checked)}
              disabled={busy}
              aria-describedby="all-users-reach"
            />
            {NOTIFICATION_MESSAGES.allUsers}
          </label>
          <p className="field-hint" id="all-users-reach">
            {NOTIFICATION_MESSAGES.allUsersReach}
          </p>
        </div>
        {fields.users ? null : (
          <RecipientPicker chosen={chosen} onChange={setChosen} error={errors.recipients} />
        )}
        <BannerUpload onDone={setSuccess} onError={setFailure} />
        <div className="row">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? NOTIFICATION_MESSAGES.submitting : NOTIFICATION_MESSAGES.submit}
          </button>
        </div>
      </form>
      <SuccessDialog open={success !== ''} message={success} onClose={() => setSuccess('')} />
      <ErrorDialog open={failure !== ''} error={failure} onClose={() => setFailure('')} />
    </section>
  );
}
