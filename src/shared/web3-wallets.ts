import * as v from 'valibot';
import { ADDRESS_MESSAGES, bep20Problem } from './payout-address.ts';
import { WEB3_MESSAGES } from './web3.ts';

// Proving a wallet address by signing (issue 18). Apart from web3.ts: the address rule checks the
// EIP-55 checksum with keccak-256, which the deposit lists and badges must not download.

const walletAddressSchema = v.pipe(
  v.string(ADDRESS_MESSAGES.bep20Invalid),
  v.trim(),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = bep20Problem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
  v.toLowerCase(),
);

/** POST /web3/wallets/challenge (member): the address to prove. */
export const web3ChallengeRequestSchema = v.object({ address: walletAddressSchema });
export const web3ChallengeSchema = v.object({ message: v.string(), expires_at: v.string() });
export type Web3Challenge = v.InferOutput<typeof web3ChallengeSchema>;

/** POST /web3/wallets (member): the challenge's message signed with the address's key (personal_sign). */
export const web3ProofRequestSchema = v.object({
  address: walletAddressSchema,
  signature: v.pipe(
    v.string(WEB3_MESSAGES.signatureInvalid),
    v.trim(),
    v.regex(/^0x[0-9a-fA-F]{130,}$/, WEB3_MESSAGES.signatureInvalid),
    v.maxLength(4096, WEB3_MESSAGES.signatureInvalid),
  ),
});
export type Web3ProofRequest = v.InferOutput<typeof web3ProofRequestSchema>;

export const web3WalletSchema = v.object({ address: v.string(), proven_at: v.string() });
export type Web3Wallet = v.InferOutput<typeof web3WalletSchema>;
export const web3WalletListSchema = v.object({ wallets: v.array(web3WalletSchema) });
export const web3ProofResultSchema = v.object({ message: v.string(), wallet: web3WalletSchema });
