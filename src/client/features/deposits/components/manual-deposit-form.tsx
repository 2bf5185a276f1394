import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { manualDepositRequestSchema } from '../../../../shared/deposits.ts';
import { ApiError } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { ImageField } from '../../../ui/image-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { addErrorText, addManualDeposit, refreshAfterDeposit } from '../api.ts';

/**
 * A member reports a payment they made: amount, transaction hash and an optional screenshot. It waits
 * for an admin; nothing is credited until then.
 */
export function ManualDepositForm() {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [txHash, setTxHash] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const { errors, busy, submit: submitWith } = useSchemaForm();
  const { banner, success, error } = useAutoClearBanner();
  const { offline } = useOffline();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (offline || fileProblem) return;
    void submitWith(
      manualDepositRequestSchema,
      { amount, tx_hash: txHash },
      async (input) => {
        try {
          const { message } = await addManualDeposit(input, file);
          setAmount('');
          setTxHash('');
          setFile(null);
          success(message);
          void refreshAfterDeposit(queryClient);
        } catch (failure) {
          // Spec 8: the server's error, else its message, else "An unexpected error occurred".
          const text = addErrorText(failure);
          if (failure instanceof ApiError)
            throw new ApiError(failure.status, { message: text, errors: failure.body.errors ?? [] });
          throw new Error(text);
        }
      },
      error,
    );
  }

  return (
    <section className="card stack" aria-labelledby="manual-deposit-title" data-testid="manual-deposit-card">
      <h2 id="manual-deposit-title">Manual deposit</h2>
      <p className="muted">
        Paid from your own wallet? Send us the amount and the transaction hash; an admin checks it and credits
        your Active Wallet.
      </p>
      <MessageBanner banner={banner} />
      <form className="form" onSubmit={submit} noValidate aria-busy={busy} data-testid="manual-deposit-form">
        <FormField
          label="Amount (USD)"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={errors.amount}
          disabled={busy}
        />
        <FormField
          label="Transaction hash"
          name="tx_hash"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder="0x…"
          value={txHash}
          onChange={(e) => setTxHash(e.target.value)}
          error={errors.tx_hash}
          hint="0x followed by 64 characters, from your wallet or the block explorer"
          disabled={busy}
        />
        <ImageField
          label="Screenshot of the payment (optional)"
          previewAlt="Chosen screenshot"
          removeLabel="Remove screenshot"
          compact
          file={file}
          onFile={(chosen, problem) => {
            setFile(problem ? null : chosen);
            setFileProblem(problem);
          }}
          error={fileProblem ?? errors.image}
          disabled={busy}
        />
        <MoneyOfflineNote />
        <button type="submit" className="button primary" disabled={busy || offline}>
          {busy ? 'Sending...' : 'Send deposit'}
        </button>
      </form>
    </section>
  );
}
