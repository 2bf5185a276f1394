import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type News, newsInputSchema, newsUpdateSchema } from '../../../../shared/news.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { uploadImage } from '../../../lib/upload.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { type ActionNote, ActionNoteView } from '../../../ui/admin-action.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DeleteDialog } from '../../../ui/dialogs.tsx';
import { FormField, TextAreaField } from '../../../ui/form-field.tsx';
import { createNews, deleteNews, newsListQuery, refreshNews, updateNews } from '../api.ts';

// The admin's news (spec 7 "News"): a form that writes an item or edits the one picked (title, text,
// an optional picture, published or draft), and the list with Edit, Publish/Unpublish and Delete.
// The picture is uploaded first (POST /news/images) and the item names it, as achievers' photos are.

type Typed = { title: string; body: string; published: boolean };
const EMPTY: Typed = { title: '', body: '', published: false };

export function AdminNews() {
  const queryClient = useQueryClient();
  const query = useQuery(newsListQuery());
  const [typed, setTyped] = useState<Typed>(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [dropImage, setDropImage] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [editing, setEditing] = useState<News | null>(null);
  const [deleting, setDeleting] = useState<News | null>(null);
  const [note, setNote] = useState<ActionNote>(null);
  const { errors, setErrors, busy, submit } = useSchemaForm();

  function reset() {
    setTyped(EMPTY);
    setFile(null);
    setDropImage(false);
    setEditing(null);
    setErrors({});
    // A new key empties the file input, which React cannot set.
    setFormKey((k) => k + 1);
  }

  function save(event: FormEvent) {
    event.preventDefault();
    setNote(null);
    // The file's name stands in for the upload's until the schema has passed: nothing is uploaded for a form with a mistake.
    const image = file ? file.name : editing && dropImage ? null : undefined;
    const input = { ...typed, image };
    const onError = (text: string) => setNote({ tone: 'error', text });
    const upload = async (named: string | null | undefined) =>
      file ? (await uploadImage('/news/images', file)).name : named;
    const done = async ({ message }: { message: string }) => {
      await refreshNews(queryClient);
      reset();
      setNote({ tone: 'success', text: message });
    };
    const item = editing;
    if (item)
      void submit(
        newsUpdateSchema,
        input,
        async (checked) =>
          done(await updateNews(item.id, { ...checked, image: await upload(checked.image) })),
        onError,
      );
    else
      void submit(
        newsInputSchema,
        input,
        async (checked) => done(await createNews({ ...checked, image: await upload(checked.image) })),
        onError,
      );
  }

  async function run(change: () => Promise<{ message: string }>) {
    setNote(null);
    try {
      setNote({ tone: 'success', text: (await change()).message });
    } catch (error) {
      setNote({ tone: 'error', text: errorText(error) });
    }
    await refreshNews(queryClient);
  }

  const columns: DataColumn<News>[] = [
    {
      id: 'title',
      header: 'Title',
      cell: (n) => n.title,
      sortValue: (n) => n.title.toLowerCase(),
      searchText: (n) => `${n.title} ${n.body}`,
      csv: (n) => n.title,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (n) => (
        <span className={`badge ${n.published ? 'green' : 'grey'}`}>
          {n.published ? 'Published' : 'Draft'}
        </span>
      ),
      sortValue: (n) => (n.published ? 1 : 0),
      csv: (n) => (n.published ? 'published' : 'draft'),
    },
    {
      id: 'date',
      header: 'Published or written',
      className: 'nowrap',
      cell: (n) => formatDateTime(n.published_at ?? n.created_at),
      sortValue: (n) => n.published_at ?? n.created_at,
      csv: (n) => n.published_at ?? n.created_at,
      descFirst: true,
    },
    {
      id: 'picture',
      header: 'Picture',
      cell: (n) => (n.image_url ? 'Yes' : 'No'),
      csv: (n) => n.image_url ?? '',
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (n) => (
        <span className="row">
          <button
            type="button"
            className="button small"
            onClick={() => {
              reset();
              setEditing(n);
              setTyped({ title: n.title, body: n.body, published: n.published });
            }}
          >
            Edit {n.title}
          </button>
          <button
            type="button"
            className="button small"
            onClick={() => run(() => updateNews(n.id, { published: !n.published }))}
          >
            {n.published ? 'Unpublish' : 'Publish'} {n.title}
          </button>
          <button type="button" className="button small danger" onClick={() => setDeleting(n)}>
            Delete {n.title}
          </button>
        </span>
      ),
    },
  ];

  const heading = editing ? `Edit ${editing.title}` : 'Write news';
  return (
    <div className="stack">
      <form
        key={formKey}
        className="card form columns"
        onSubmit={save}
        noValidate
        aria-busy={busy}
        aria-label={heading}
      >
        <h2 className="span-all">{heading}</h2>
        <FormField
          label="Title"
          name="title"
          maxLength={120}
          value={typed.title}
          onChange={(e) => setTyped((t) => ({ ...t, title: e.target.value }))}
          error={errors.title}
          disabled={busy}
        />
        <FormField
          label={editing?.image_url ? 'New picture (optional)' : 'Picture (optional)'}
          name="image"
          type="file"
          accept="image/png,image/jpeg,image/webp"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          error={errors.image}
          disabled={busy}
        />
        <div className="span-all">
          <TextAreaField
            label="Text"
            name="body"
            rows={6}
            maxLength={10_000}
            value={typed.body}
            onChange={(e) => setTyped((t) => ({ ...t, body: e.target.value }))}
            error={errors.body}
            disabled={busy}
          />
        </div>
        <label className="row">
          <input
            type="checkbox"
            name="published"
            checked={typed.published}
            onChange={(e) => setTyped((t) => ({ ...t, published: e.target.checked }))}
            disabled={busy}
          />
          Published (members see it)
        </label>
        {editing?.image_url ? (
          <label className="row">
            <input
              type="checkbox"
              name="drop-image"
              checked={dropImage}
              onChange={(e) => setDropImage(e.target.checked)}
              disabled={busy || file !== null}
            />
            Remove the picture
          </label>
        ) : null}
        <div className="row span-all">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving...' : editing ? 'Save changes' : 'Save news'}
          </button>
          {editing ? (
            <button type="button" className="button" disabled={busy} onClick={reset}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      <ActionNoteView note={note} />
      <DataTable
        caption="News"
        columns={columns}
        rows={query.data?.news}
        rowKey={(n) => n.id}
        status={query}
        empty="No news yet."
        noun={['news item', 'news items']}
        testId="admin-news"
        searchLabel="Search news"
        csvName="news"
        initialSort={{ id: 'date', desc: true }}
      />
      <DeleteDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const item = deleting;
          setDeleting(null);
          if (item) void run(() => deleteNews(item.id));
        }}
        note="Members no longer see it; the audit log keeps what it said."
      />
    </div>
  );
}
