import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type QrLink, type QrLinkInput, qrLinkInputSchema } from '../../../../shared/qr-links.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { CrudTable } from '../../../ui/crud-table.tsx';
import type { DataColumn } from '../../../ui/data-table.tsx';
import { createQrLink, deleteQrLink, qrLinksQuery, refreshQrLinks } from '../api.ts';
import { QrImage } from './qr-image.tsx';

type Fields = { label: string; value: string };
const EMPTY: Fields = { label: '', value: '' };

const COLUMNS: DataColumn<QrLink>[] = [
  { id: 'code', header: 'QR', cell: (q) => <QrImage text={q.value} label={q.label} size={96} /> },
  {
    id: 'label',
    header: 'Label',
    cell: (q) => q.label,
    sortValue: (q) => q.label.toLowerCase(),
    searchText: (q) => `${q.label} ${q.value}`,
    csv: (q) => q.label,
  },
  {
    id: 'kind',
    header: 'Kind',
    cell: (q) => (q.kind === 'url' ? 'Link' : 'Wallet address'),
    csv: (q) => q.kind,
  },
  {
    id: 'value',
    header: 'Link or address',
    cell: (q) => <span className="qr-link-value">{q.value}</span>,
    csv: (q) => q.value,
  },
  {
    id: 'added',
    header: 'Added',
    className: 'nowrap',
    cell: (q) => formatDateTime(q.created_at),
    sortValue: (q) => q.created_at,
    csv: (q) => q.created_at,
    descFirst: true,
  },
];

/** The QR links members see on their deposit screen: add one (label and link or address), delete one. */
export function AdminQrLinks() {
  const queryClient = useQueryClient();
  const query = useQuery(qrLinksQuery);
  return (
    <CrudTable<QrLink, Fields, QrLinkInput>
      rows={query.data?.qr}
      status={query}
      columns={COLUMNS}
      table={{
        caption: 'QR links',
        empty: 'No QR links yet.',
        noun: ['QR link', 'QR links'],
        testId: 'qr-links',
        csvName: 'qr-links',
        initialSort: { id: 'added', desc: true },
      }}
      fields={[
        { name: 'label', label: 'Label', maxLength: 60 },
        { name: 'value', label: 'https:// link or wallet address', maxLength: 500 },
      ]}
      empty={EMPTY}
      editable={false}
      toFields={(q) => ({ label: q.label, value: q.value })}
      title={(q) => q.label}
      newTitle="New QR link"
      createLabel="Add QR link"
      headingLevel={2}
      schema={qrLinkInputSchema}
      toInput={(fields) => ({ label: fields.label.trim(), value: fields.value.trim() })}
      send={(input) => createQrLink(input)}
      remove={(q) => deleteQrLink(q.id)}
      refresh={() => refreshQrLinks(queryClient)}
      deleteNote="Members no longer see this code where they deposit."
    />
  );
}
