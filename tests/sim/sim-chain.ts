import { custom, type Transport } from 'viem';
import { WEB3_CHAIN_ID } from '../../src/shared/web3.ts';
import { START } from './world.ts';

// The chain's side of the simulation: a BNB Smart Chain JSON-RPC endpoint answering the few calls the
// chain reader makes (eth_chainId, eth_getTransactionReceipt, eth_blockNumber, and eth_call for the
// token's decimals) from a small simulated chain. Its head moves with the simulated clock (a block
// every BLOCK_MS), so a transaction's confirmations grow as the run's time passes. The chain reader's
// own viem client sends it its requests (a `custom` transport instead of `http`): our reading of
// receipts, logs and confirmations is the product's code. In process, not over a socket, so that the
// order in which concurrent operations reach the database stays the seed's.

export const BLOCK_MS = 20_000;
export const TOKEN_DECIMALS = 18;
export const SIM_TOKEN = '0x55d398326f99059ff775485246999027b3197955';
export const SIM_DEPOSIT_ADDRESS = '0x000000000000000000000000000000000000d3b0';
export const OTHER_TOKEN = '0xe9e7cea3dedca5984780bafc599bd69add087d56';
export const OTHER_ADDRESS = '0x00000000000000000000000000000000000bad00';

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const DECIMALS_SELECTOR = '0x313ce567';
const FIRST_BLOCK = 40_000_000;

export type ChainTx = {
  hash: string;
  from: string;
  to: string;
  token: string;
  units: bigint;
  success: boolean;
  /** The block it is mined in; not visible before the head reaches it. */
  block: number;
};

const hex = (n: bigint | number) => `0x${n.toString(16)}`;
const word = (value: string | bigint) =>
  (typeof value === 'bigint' ? value.toString(16) : value.replace(/^0x/, '')).padStart(64, '0');

export class SimChain {
  readonly txs = new Map<string, ChainTx>();
  readonly hashes: string[] = [];
  /** RPC calls answered, for the run's summary. */
  calls = 0;

  /** The head block now, as the simulated clock says. */
  head(now = Date.now()): number {
    return FIRST_BLOCK + Math.floor((now - START) / BLOCK_MS);
  }

  /** A transaction sent now, mined `delay` blocks from the head. */
  send(tx: Omit<ChainTx, 'block'>, delay: number): ChainTx {
    const sent = { ...tx, block: this.head() + delay };
    if (!this.txs.has(sent.hash)) {
      this.txs.set(sent.hash, sent);
      this.hashes.push(sent.hash);
    }
    return this.txs.get(sent.hash) as ChainTx;
  }

  /** Confirmations as a node counts them now (0: not mined yet or unknown). */
  confirmations(hash: string): number {
    const tx = this.txs.get(hash);
    const head = this.head();
    return tx && head >= tx.block ? head - tx.block + 1 : 0;
  }

  #receipt(hash: string) {
    const tx = this.txs.get(hash.toLowerCase());
    if (!tx || this.head() < tx.block) return null;
    const blockHash = `0x${word(BigInt(tx.block))}`;
    const common = {
      blockHash,
      blockNumber: hex(tx.block),
      transactionHash: tx.hash,
      transactionIndex: '0x0',
    };
    return {
      ...common,
      from: tx.from,
      to: tx.token,
      contractAddress: null,
      cumulativeGasUsed: '0x5208',
      gasUsed: '0x5208',
      effectiveGasPrice: '0x3b9aca00',
      logsBloom: `0x${'0'.repeat(512)}`,
      status: tx.success ? '0x1' : '0x0',
      type: '0x0',
      logs: tx.success
        ? [
            {
              ...common,
              address: tx.token,
              topics: [TRANSFER_TOPIC, `0x${word(tx.from)}`, `0x${word(tx.to)}`],
              data: `0x${word(tx.units)}`,
              logIndex: '0x0',
              removed: false,
            },
          ]
        : [],
    };
  }

  #answer(method: string, params: unknown[]): unknown {
    switch (method) {
      case 'eth_chainId':
        return hex(WEB3_CHAIN_ID);
      case 'eth_blockNumber':
        return hex(this.head());
      case 'eth_getTransactionReceipt':
        return this.#receipt(String(params[0]));
      case 'eth_call': {
        const call = params[0] as { to?: string; data?: string; input?: string };
        if ((call.data ?? call.input)?.startsWith(DECIMALS_SELECTOR))
          return `0x${word(BigInt(TOKEN_DECIMALS))}`;
        throw new Error(`eth_call ${call.data ?? call.input}`);
      }
      default:
        throw new Error(`the simulated chain does not answer ${method}`);
    }
  }

  /** The RPC as viem's client sees it: each JSON-RPC request answered in process, as a node would. */
  transport(): Transport {
    return custom({
      request: async ({ method, params }: { method: string; params?: unknown[] }) => {
        this.calls += 1;
        return this.#answer(method, params ?? []);
      },
    });
  }
}
