import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import {
  TICKET_CATEGORIES,
  TICKET_MESSAGE_MAX,
  TICKET_MESSAGES,
  ticketCategoryLabel,
  ticketCreateSchema,
} from '../../../../shared/tickets.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog, SuccessDialog } from '../../../ui/dialogs.tsx';
import { FormField, SelectField, TextAreaField } from '../../../ui/form-field.tsx';
import { ImageField } from '../../../ui/image-field.tsx';
import { createTicket, refreshTickets, uploadTicketImage, withFallback } from '../api.ts';

type Fields = { subject: string; category: string; message: string };
const EMPTY: Fields = { subject: '', category: '', message: '' };

/** /user/query/create: subject, category, message and an optional image. */
export function TicketForm() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();
  const [created, setCreated] = useState<{ message: string; ticketId: string } | null>(null);
  const [failure, setFailure] = useState('');

  const set = (name: keyof Fields) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setFields((current) => ({ ...current, [name]: value }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (fileProblem) return;
    void submitWith(
      ticketCreateSchema,
      fields,
      async (input) => {
        const result = await withFallback(async () => {
          const image = file ? (await uploadTicketImage(file)).name : undefined;
          return createTicket({ ...input, ...(image ? { image } : {}) });
        });
        setFields(EMPTY);
        setFile(null);
        setErrors({});
        setCreated({ message: result.message, ticketId: result.ticket.ticket_id });
        void refreshTickets(queryClient);
      },
      (text) => setFailure(text),
    );
  }

  return (
    <section className="card" aria-labelledby="ticket-form-title">
      <h2 id="ticket-form-title">New support ticket</h2>
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <FormField
          label="Subject"
          name="subject"
          autoComplete="off"
          value={fields.subject}
          onChange={set('subject')}
          error={errors.subject}
          disabled={busy}
        />
        <SelectField
          label="Category"
          name="category"
          value={fields.category}
          onChange={set('category')}
          error={errors.category}
          disabled={busy}
        >
          <option value="">Select a category</option>
          {TICKET_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {ticketCategoryLabel(category)}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label="Message"
          name="message"
          rows={6}
          value={fields.message}
          onChange={set('message')}
          error={errors.message}
          hint={`${fields.message.length}/${TICKET_MESSAGE_MAX}`}
          disabled={busy}
        />
        <ImageField
          label="Image (optional)"
          file={file}
          onFile={(chosen, problem) => {
            setFile(chosen);
            setFileProblem(problem);
            setErrors((current) => ({ ...current, image: problem ?? '' }));
          }}
          error={fileProblem ?? (errors.image || undefined)}
          disabled={busy}
        />
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Sending...' : 'Submit ticket'}
        </button>
      </form>
      <SuccessDialog
        open={created !== null}
        message={created?.message ?? TICKET_MESSAGES.created}
        onClose={() => {
          const ticketId = created?.ticketId;
          setCreated(null);
          if (ticketId) void navigate({ to: '/user/queries/$ticketId', params: { ticketId } });
        }}
      />
      <ErrorDialog open={failure !== ''} error={failure} onClose={() => setFailure('')} />
    </section>
  );
}
