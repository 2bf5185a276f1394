import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Achiever, achieverInputSchema } from '../../../../shared/achievers.ts';
import { api, errorText } from '../../../lib/http.ts';
import { uploadImage } from '../../../lib/upload.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';

// The achievers gallery (spec 7 "Achievers"): members see it on their rewards screen; admins add a
// photo with a name and rank, and remove pictures, on the reward plans screen.

const achieversQuery = {
  queryKey: ['rewards', 'achievers'],
  queryFn: () => api<{ achievers: Achiever[] }>('GET', '/achivers/list'),
  staleTime: 0,
};

export function AchieversGallery({ admin = false }: { admin?: boolean }) {
  const queryClient = useQueryClient();
  const query = useQuery(achieversQuery);
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function remove(achiever: Achiever) {
    setNote(null);
    try {
      const { message } = await api<{ message: string }>(
        'DELETE',
        `/achivers/${encodeURIComponent(achiever.id)}`,
      );
      setNote({ tone: 'success', text: message });
    } catch (error) {
      setNote({ tone: 'error', text: errorText(error) });
    }
    await queryClient.invalidateQueries({ queryKey: achieversQuery.queryKey });
  }

  return (
    <section className="card stack" aria-labelledby="achievers-title">
      <h2 id="achievers-title">Achievers</h2>
      {admin ? <AddAchiever onNote={setNote} /> : null}
      {note ? (
        <p
          className={note.tone === 'success' ? 'notice' : 'error'}
          role={note.tone === 'success' ? 'status' : 'alert'}
        >
          {note.text}
        </p>
      ) : null}
      {query.isPending ? <Spinner /> : null}
      {query.error ? <QueryError error={query.error} onRetry={() => query.refetch()} /> : null}
      {query.data?.achievers.length === 0 ? <p className="muted">No achievers to show yet.</p> : null}
      <ul className="achievers" aria-label="Achievers">
        {query.data?.achievers.map((a) => (
          <li key={a.id} data-testid="achiever">
            <img src={a.image_url} alt={a.name} width={160} height={160} loading="lazy" />
            <strong>{a.name}</strong>
            <span className="muted">{a.rank}</span>
            {admin ? (
              <button type="button" className="button danger" onClick={() => remove(a)}>
                Remove {a.name}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function AddAchiever({ onNote }: { onNote: (note: { tone: 'success' | 'error'; text: string }) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [rank, setRank] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const { errors, busy, submit } = useSchemaForm();

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    void submit(
      achieverInputSchema,
      { name, rank, image: file ? file.name : '' },
      async (input) => {
        if (!file) return;
        const image = await uploadImage('/achivers/images', file);
        const { message } = await api<{ message: string }>('POST', '/achivers/add', {
          ...input,
          image: image.name,
        });
        onNote({ tone: 'success', text: message });
        setName('');
        setRank('');
        setFile(null);
        form.reset();
        await queryClient.invalidateQueries({ queryKey: achieversQuery.queryKey });
      },
      (text) => onNote({ tone: 'error', text }),
    );
  }

  return (
    <form className="form columns" onSubmit={save} noValidate aria-busy={busy} aria-label="Add an achiever">
      <FormField
        label="Name"
        name="name"
        maxLength={80}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        disabled={busy}
      />
      <FormField
        label="Rank"
        name="rank"
        maxLength={60}
        value={rank}
        onChange={(e) => setRank(e.target.value)}
        error={errors.rank}
        disabled={busy}
      />
      <FormField
        label="Photo"
        name="image"
        type="file"
        accept="image/png,image/jpeg,image/webp"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        error={errors.image}
        disabled={busy}
      />
      <div className="row span-all">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Adding...' : 'Add achiever'}
        </button>
      </div>
    </form>
  );
}
