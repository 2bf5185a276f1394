import {
  createPublicClient,
  erc20Abi,
  http,
  parseEventLogs,
  TransactionReceiptNotFoundError,
  type Transport,
} from 'viem';
import { WEB3_CHAIN_ID } from '../../../shared/web3.ts';

// Reads one transaction from the configured BNB Smart Chain RPC with viem, read-only: never a key, never
// a signature. What the browser says about a deposit is never used; only this.

export type Observation =
  /** Not mined (yet), or dropped by a reorganisation. */
  | { kind: 'not_found' }
  | { kind: 'reverted'; blockNumber: bigint }
  /** Mined and succeeded, but no Transfer of the configured token to the deposit address. */
  | { kind: 'no_transfer'; blockNumber: bigint }
  | {
      kind: 'seen';
      /** Every Transfer of the token to the deposit address in it, summed, in cents rounded down. */
      amountCents: number;
      fromAddress: string;
      toAddress: string;
      blockNumber: bigint;
      /** head - receipt block + 1 */
      confirmations: number;
    };

export type ChainReader = {
  observe: (txHash: `0x${string}`) => Promise<Observation>;
  /** The configured token's decimals, read from its contract once. */
  tokenDecimals: () => Promise<number>;
};

/** Token base units -> cents, exactly, rounding down (10.005 USDT with 18 decimals -> 1000). */
export function unitsToCents(units: bigint, decimals: number): bigint {
  return (units * 100n) / 10n ** BigInt(decimals);
}

export function createChainReader(options: {
  rpcUrl: string;
  tokenContract: string;
  depositAddress: string;
  /** How JSON-RPC requests reach the node: over HTTP to rpcUrl unless given (the money simulator's chain). */
  transport?: Transport;
}): ChainReader {
  // cacheTime 0: viem caches the head block number for 4 s by default, and a confirmation count read
  // from a stale head would be too low (harmless) or, across clients, inconsistent.
  const client = createPublicClient({
    transport: options.transport ?? http(options.rpcUrl, { retryCount: 1, timeout: 10_000 }),
    cacheTime: 0,
  });
  const token = options.tokenContract.toLowerCase();
  const depositAddress = options.depositAddress.toLowerCase();
  let chainChecked: Promise<void> | undefined;
  // A token's decimals never change: read once per contract.
  const decimalsByContract = new Map<string, Promise<number>>();

  const checkChain = () => {
    chainChecked ??= client.getChainId().then((id) => {
      // An RPC of another chain would make any hash there look like a BSC deposit.
      if (id !== WEB3_CHAIN_ID) throw new Error(`BSC_RPC_URL answers chain id ${id}, not ${WEB3_CHAIN_ID}`);
    });
    chainChecked.catch(() => {
      chainChecked = undefined;
    });
    return chainChecked;
  };
  const decimalsOf = (contract: `0x${string}`) => {
    let decimals = decimalsByContract.get(contract);
    if (!decimals) {
      decimals = client.readContract({ address: contract, abi: erc20Abi, functionName: 'decimals' });
      decimalsByContract.set(contract, decimals);
      decimals.catch(() => decimalsByContract.delete(contract));
    }
    return decimals;
  };

  return {
    tokenDecimals: () => decimalsOf(options.tokenContract as `0x${string}`),
    async observe(txHash) {
      await checkChain();
      let receipt: Awaited<ReturnType<typeof client.getTransactionReceipt>>;
      try {
        receipt = await client.getTransactionReceipt({ hash: txHash });
      } catch (error) {
        if (error instanceof TransactionReceiptNotFoundError) return { kind: 'not_found' };
        throw error;
      }
      const blockNumber = receipt.blockNumber;
      if (receipt.status !== 'success') return { kind: 'reverted', blockNumber };
      const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter(
        (log) => log.address.toLowerCase() === token && log.args.to.toLowerCase() === depositAddress,
      );
      const [first] = transfers;
      if (!first) return { kind: 'no_transfer', blockNumber };
      const units = transfers.reduce((sum, log) => sum + log.args.value, 0n);
      const decimals = await decimalsOf(first.address);
      const cents = unitsToCents(units, decimals);
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const confirmations = head >= blockNumber ? Number(head - blockNumber + 1n) : 0;
      return {
        kind: 'seen',
        // Past a safe integer the caller sends it to an admin rather than guess.
        amountCents: cents > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER + 1 : Number(cents),
        fromAddress: first.args.from.toLowerCase(),
        toAddress: depositAddress,
        blockNumber,
        confirmations,
      };
    },
  };
}
