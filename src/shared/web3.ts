import * as v from 'valibot';
import { WEB3_DEPOSIT_STATUSES } from './enums.ts';
import { formatUsd, formatUsdt } from './money.ts';
import { multiLineText } from './text.ts';
import { txHashSchema } from './tx-hash.ts';
import { amountSchema } from './wallets.ts';

// On-chain deposits (RULES.md "Deposits: Web3 deposit", API.md "On-chain deposits"): a member
// sends USDT (BEP20) on BNB Smart Chain to the platform's deposit address and submits the transaction
// hash; the server reads the receipt from its own RPC and credits the Active Wallet (`business`) once
// per (chain, hash) after 12 confirmations. The rules chosen are in docs/rules.md "On-chain deposits".

/** BNB Smart Chain: the only chain a deposit is accepted on. */
export const WEB3_CHAIN_ID = 56;
export const WEB3_CHAIN_NAME = 'BNB Smart Chain';
export const WEB3_TOKEN_SYMBOL = 'USDT';
/** Blocks on top of (and including) the transaction's before it is credited. */
export const WEB3_REQUIRED_CONFIRMATIONS = 12;
export const WEB3_EXPLORER_TX_URL = 'https://bscscan.com/tx/';

/**
 * The chains a wallet may connect on (spec 1); a deposit is accepted on BNB Smart Chain only, and the
 * deposit screen asks the wallet to switch to it.
 */
export const WEB3_WALLET_CHAINS = [
  { id: 56, name: 'BNB Smart Chain' },
  { id: 1, name: 'Ethereum' },
  { id: 137, name: 'Polygon' },
  { id: 42161, name: 'Arbitrum One' },
] as const;
export const web3ChainName = (id: number) =>
  WEB3_WALLET_CHAINS.find((c) => c.id === id)?.name ?? `chain ${id}`;

/** A message to sign for a wallet proof is valid this long, and once. */
export const WEB3_PROOF_TTL_MS = 10 * 60_000;

export { WEB3_DEPOSIT_STATUSES };
export type Web3DepositStatus = (typeof WEB3_DEPOSIT_STATUSES)[number];

export const WEB3_MESSAGES = {
  submitted: 'Transaction received. It is credited to your Active Wallet once the chain confirms it.',
  submittedAwaitingAdmin:
    'Transaction received. An admin will check it on chain and credit your Active Wallet.',
  alreadySubmitted: 'You already sent this transaction: here is its deposit.',
  hashTaken: 'This transaction has already been submitted for a deposit',
  chainUnsupported: 'Deposits are accepted on BNB Smart Chain (chain id 56) only',
  txHashRequired: 'Paste the transaction hash of your transfer',
  txHashInvalid: 'A transaction hash is 0x followed by 64 hexadecimal characters',
  notFound: 'No on-chain deposit with this id',
  notWaiting: 'Only a deposit that waits for an admin (or that the chain check cannot see) can be decided',
  reasonRequired: 'Give the member a reason of 3 to 500 characters',
  amountMismatch: (amount: string) =>
    `The chain shows ${formatUsdt(amount)} for this transaction: approve that amount`,
  approved: 'Deposit approved: the amount was added to the member’s Active Wallet',
  rejected: 'Deposit rejected',
  // Why the chain check rejected a deposit (shown to the member).
  reverted: 'The transaction failed on chain',
  noTransfer: 'The transaction sends no USDT to the deposit address',
  belowOneCent: 'The amount sent is less than one cent',
  notFoundOnChain: 'The transaction was not found on chain within a day',
  /** Confirmed, but not sent from a wallet the member proved theirs by signing: an admin checks who sent it. */
  fromNotProven:
    'Sent from a wallet you have not proven yours by signing: an admin checks it before it is credited',
  /** An admin approval needs the chain to show the transfer, confirmed, when the chain check runs. */
  notConfirmedOnChain: (required: number) =>
    `The chain does not show this transfer with ${required} confirmations: it cannot be approved now`,
  chainUnreadable: 'The chain could not be read just now: try again in a moment',
  senderProvenByOther:
    'The sender’s wallet is proven by another member: assign the deposit to that member first',
  assigned: 'Deposit assigned to the member',
  assignSame: 'The deposit is already this member’s',
  assignFinal: 'A credited deposit is final and cannot be assigned',
  memberRequired: 'Choose a member to assign the deposit to',
  walletNotConfigured:
    'Wallet connection is not configured on this platform. Send USDT from any wallet and paste the transaction hash below.',
  walletNoDecimals:
    'Sending from a connected wallet needs the chain check, which is not configured here. Send USDT from your wallet and paste the transaction hash below.',
  // Proving a wallet address (a signed message).
  proofIssued:
    'Sign the message in your wallet: it proves the address is yours, costs nothing and moves no money.',
  proofOk: 'Wallet proven: transfers from it are credited once the chain confirms them.',
  proofAlready: 'This wallet is already proven as yours.',
  proofInvalid:
    'The signature does not match this address and message. Ask for a new message and sign it again.',
  proofExpired: 'The message to sign has expired or was used. Ask for a new one.',
  proofTaken: 'This wallet address is proven by another member.',
  signatureInvalid: 'A signature is 0x followed by hexadecimal characters',
} as const;

/**
 * One transaction on chain credits once, whatever the path: what the second path answers (409), by
 * where the (chain, hash) was credited first.
 */
export const CHAIN_CREDIT_MESSAGES = {
  manual: 'This transaction was already credited as a manual deposit',
  onchain: 'This transaction was already credited as an on-chain deposit',
  payment: 'This transaction was already credited as a crypto payment',
} as const;

/** POST /web3/deposits (member). */
export const web3DepositRequestSchema = v.object({
  chain_id: v.pipe(
    v.number(WEB3_MESSAGES.chainUnsupported),
    v.value(WEB3_CHAIN_ID, WEB3_MESSAGES.chainUnsupported),
  ),
  tx_hash: txHashSchema({ required: WEB3_MESSAGES.txHashRequired, invalid: WEB3_MESSAGES.txHashInvalid }),
});
export type Web3DepositRequest = v.InferOutput<typeof web3DepositRequestSchema>;

export const web3DepositIdParamsSchema = v.object({
  id: v.pipe(v.string(WEB3_MESSAGES.notFound), v.trim(), v.nonEmpty(WEB3_MESSAGES.notFound)),
});

export const web3DepositListQuerySchema = v.object({
  status: v.optional(
    v.picklist(WEB3_DEPOSIT_STATUSES, `status is one of ${WEB3_DEPOSIT_STATUSES.join(', ')}`),
  ),
});
export type Web3DepositListQuery = v.InferOutput<typeof web3DepositListQuerySchema>;

const reasonSchema = v.pipe(
  v.string(WEB3_MESSAGES.reasonRequired),
  v.trim(),
  v.minLength(3, WEB3_MESSAGES.reasonRequired),
  v.maxLength(500, WEB3_MESSAGES.reasonRequired),
  multiLineText(),
);

const depositAmountSchema = v.pipe(
  amountSchema,
  v.maxValue(100_000_000, `An on-chain deposit is at most ${formatUsd(100_000_000)}`),
);

/** POST /web3/deposits/{id}/approve (admin): the amount the admin checked on chain. */
export const web3ApproveSchema = v.object({ amount: depositAmountSchema, reason: v.optional(reasonSchema) });

/** The deposit screen's send-from-a-connected-wallet form (the chain, not this, says what arrived). */
export const web3SendSchema = v.object({ amount: depositAmountSchema });
export type Web3Approve = v.InferOutput<typeof web3ApproveSchema>;

/**
 * POST /web3/deposits/{id}/assign (admin): hands an uncredited deposit to the member who sent it (the
 * one who proved its sender's wallet, or whom the admin checked), with a reason for the audit log.
 */
export const web3AssignSchema = v.object({
  user_id: v.pipe(
    v.string(WEB3_MESSAGES.memberRequired),
    v.trim(),
    v.nonEmpty(WEB3_MESSAGES.memberRequired),
    v.maxLength(100, WEB3_MESSAGES.memberRequired),
  ),
  reason: reasonSchema,
});
export type Web3Assign = v.InferOutput<typeof web3AssignSchema>;

/** POST /web3/deposits/{id}/reject (admin). */
export const web3RejectSchema = v.object({ reason: reasonSchema });
export type Web3Reject = v.InferOutput<typeof web3RejectSchema>;

/** A deposit as the API gives it (API.md's fields first; the rest for the screens). */
export const web3DepositSchema = v.object({
  id: v.string(),
  chain_id: v.number(),
  tx_hash: v.string(),
  /** From the chain's Transfer log (or the admin's approval), null until known. */
  amount: v.nullable(v.string()),
  status: v.picklist(WEB3_DEPOSIT_STATUSES),
  confirmations: v.number(),
  created_at: v.string(),
  required_confirmations: v.number(),
  reason: v.nullable(v.string()),
  from_address: v.nullable(v.string()),
  block_number: v.nullable(v.string()),
  credited_at: v.nullable(v.string()),
  user_id: v.string(),
  username: v.string(),
  fullname: v.string(),
});
export type Web3Deposit = v.InferOutput<typeof web3DepositSchema>;

export const web3DepositResultSchema = v.object({ message: v.string(), deposit: web3DepositSchema });
export type Web3DepositResult = v.InferOutput<typeof web3DepositResultSchema>;
export const web3DepositDetailSchema = v.object({ deposit: web3DepositSchema });
export const web3DepositListSchema = v.object({ deposits: v.array(web3DepositSchema) });
export type Web3DepositList = v.InferOutput<typeof web3DepositListSchema>;

/** GET /web3/config (signed-in): what the deposit screen shows and needs to connect a wallet. */
export const web3ConfigSchema = v.object({
  chain_id: v.number(),
  chain_name: v.string(),
  token_symbol: v.string(),
  token_contract: v.nullable(v.string()),
  deposit_address: v.nullable(v.string()),
  required_confirmations: v.number(),
  /** False: every deposit waits for an admin. */
  chain_check: v.boolean(),
  /** WalletConnect project ids are public (they ship in every dapp's code); null when not set. */
  walletconnect_project_id: v.nullable(v.string()),
  /** The token's decimals as read from its contract; null without the chain check (no wallet sending then). */
  token_decimals: v.nullable(v.number()),
  /** A relay of the operator's own (WALLETCONNECT_RELAY_URL); null: WalletConnect's public relay. */
  walletconnect_relay_url: v.nullable(v.string()),
});
export type Web3Config = v.InferOutput<typeof web3ConfigSchema>;

/** GET /web3/settings (admin): the settings in use; the RPC URL may hold a key, so only whether it is set. */
export const web3SettingsSchema = v.object({
  settings: v.object({
    chain_id: v.number(),
    chain_name: v.string(),
    token_contract: v.nullable(v.string()),
    deposit_address: v.nullable(v.string()),
    required_confirmations: v.number(),
    rpc_configured: v.boolean(),
    walletconnect_configured: v.boolean(),
    poll_interval_ms: v.number(),
  }),
});
export type Web3Settings = v.InferOutput<typeof web3SettingsSchema>['settings'];

export const WEB3_STATUS_LABELS: Record<Web3DepositStatus, string> = {
  pending: 'Pending',
  confirming: 'Confirming',
  credited: 'Credited',
  rejected: 'Rejected',
  awaiting_admin: 'Awaiting admin',
};

export const WEB3_BADGE: Record<Web3DepositStatus, 'green' | 'yellow' | 'red' | 'grey'> = {
  credited: 'green',
  pending: 'yellow',
  confirming: 'yellow',
  awaiting_admin: 'grey',
  rejected: 'red',
};
