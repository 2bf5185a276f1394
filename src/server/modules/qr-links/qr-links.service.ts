import {
  QR_LINK_MESSAGES as M,
  type QrLink,
  type QrLinkInput,
  qrLinkValueCheck,
} from '../../../shared/qr-links.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { QrLinkTable } from '../../db/schema.ts';
import { forbidden } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { type AuditedRows, auditedCreate, auditedDelete } from '../audit/audited.ts';
import {
  deleteQrLink,
  findQrLink,
  insertQrLink,
  listQrLinkRows,
  updateQrLink,
} from './qr-links.repository.ts';

// QR links: admins add and remove them (audited); everyone signed in reads them (members where they
// deposit). A value is stored as the admin typed it, checked by the shared schema.

function adminOnly(asker: SessionUser) {
  if (asker.user.role !== 'admin') throw forbidden();
}

const toQrLink = (row: QrLinkTable): QrLink => {
  const checked = qrLinkValueCheck(row.value);
  return {
    id: row.id,
    label: row.label,
    value: row.value,
    kind: 'kind' in checked ? checked.kind : 'url',
    created_at: row.created_at,
  };
};

const qrLinkRows: AuditedRows<QrLinkTable, QrLink> = {
  action: 'qr_link',
  targetType: 'qr_link',
  show: toQrLink,
  find: findQrLink,
  insert: insertQrLink,
  update: updateQrLink,
  remove: deleteQrLink,
  inUse: async () => false,
  messages: {
    notFound: M.notFound,
    taken: M.notFound,
    inUse: M.notFound,
    nothingToChange: { field: 'label', message: M.labelRequired },
  },
};

export async function listQrLinks(db: Db) {
  return { qr: (await listQrLinkRows(db)).map(toQrLink) };
}

export async function addQrLink(db: Db, admin: SessionUser, input: QrLinkInput) {
  adminOnly(admin);
  const now = new Date().toISOString();
  const row: QrLinkTable = {
    id: newId(),
    label: input.label,
    value: input.value,
    created_by: admin.user.id,
    created_at: now,
    updated_at: now,
  };
  return { message: M.created, qr: await auditedCreate(db, admin, qrLinkRows, row) };
}

export async function removeQrLink(db: Db, admin: SessionUser, id: string) {
  adminOnly(admin);
  await auditedDelete(db, admin, qrLinkRows, id);
  return { message: M.deleted };
}
