import { PAYOUT_NETWORKS, type PayoutNetwork } from '../../../shared/payout-address.ts';
import { PROFILE, type Profile, type ProfileUpdateInput } from '../../../shared/profile.ts';
import type { Db } from '../../db/database.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { redeemEmailCode } from '../account/email-codes.service.ts';
import { findUserById } from '../users/users.repository.ts';
import { recordPayoutAddressChange } from './payout-addresses.service.ts';
import { findAddressChanges, findSponsor, updateProfileColumns } from './profile.repository.ts';

// The member's own profile (issue 14): read it with the sponsor and the payout addresses' state, and
// change name, phone and the addresses. An address change or removal needs the e-mailed code (purpose
// 'address'), used up in the transaction that writes the address.

/** GET /profile: the signed-in member's own data only; identity from the session. */
export async function readProfile(db: Db, asker: SessionUser): Promise<Profile> {
  const row = await findUserById(db, asker.user.id);
  if (!row) throw notFound();
  const sponsor = row.sponsor_id ? await findSponsor(db, row.sponsor_id) : undefined;
  const changes = await findAddressChanges(db, row.id);
  return {
    id: row.id,
    fullname: row.fullname,
    username: row.username,
    email: row.email,
    phone: row.phone,
    refferal_code: row.refferal_code,
    created_at: row.created_at,
    verify_at: row.verify_at,
    sponsor: sponsor ? { fullname: sponsor.fullname, username: sponsor.username } : null,
    addresses: PAYOUT_NETWORKS.map((network) => {
      const change = changes.find((c) => c.network === network);
      return {
        network,
        address: row[network],
        changed_at: change?.changed_at ?? null,
        changed_by: change?.changed_by_role ?? null,
        usable_from: change?.usable_from ?? null,
      };
    }),
  };
}

/**
 * PUT /profile: writes only what differs. Name and phone need no code; changing or clearing an address
 * does (an unchanged one does not). A refusal changes nothing.
 */
export async function updateProfile(db: Db, asker: SessionUser, input: ProfileUpdateInput): Promise<void> {
  const row = asker.user;
  const changes: { fullname?: string; phone?: string; bep20?: string | null; trc20?: string | null } = {};
  if (input.fullname !== undefined && input.fullname !== row.fullname) changes.fullname = input.fullname;
  if (input.phone !== undefined && input.phone !== row.phone) changes.phone = input.phone;
  const networks: PayoutNetwork[] = PAYOUT_NETWORKS.filter(
    (network) => input[network] !== undefined && input[network] !== row[network],
  );
  for (const network of networks) changes[network] = input[network] ?? null;

  const write = async (trx: Db) => {
    if (Object.keys(changes).length === 0) return;
    const now = new Date();
    await updateProfileColumns(trx, row.id, { ...changes, updated_at: now.toISOString() });
    for (const network of networks)
      await recordPayoutAddressChange(trx, { userId: row.id, network, actorId: row.id, by: 'member', now });
  };

  if (networks.length === 0) {
    await db.transaction().execute(write);
    return;
  }
  if (!input.otp) throw badRequest([{ field: 'otp', message: PROFILE.codeNeeded }]);
  await redeemEmailCode(db, row.id, 'address', input.otp, write);
}
