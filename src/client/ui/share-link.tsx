import { useState } from 'react';
import toast from 'react-hot-toast';
import { COPIED_LABEL_MS } from '../../shared/constants.ts';

/**
 * A link to hand on: shown in full (selectable, for a browser that refuses the clipboard), "Copy link",
 * and "Share" where the browser has a share sheet (navigator.share: phones, not most desktops).
 */
export function ShareLink({
  link,
  label,
  copiedText,
  share,
}: {
  link: string;
  /** Names the field for screen readers; each ShareLink on a page needs its own. */
  label: string;
  copiedText: string;
  share: { title: string; text: string };
}) {
  const [copied, setCopied] = useState(false);
  const canShare = typeof navigator.share === 'function';
  const fieldId = `share-${label.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-')}`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast.success(copiedText);
      setTimeout(() => setCopied(false), COPIED_LABEL_MS);
    } catch {
      toast.error('Copying is not allowed here. Select the link and copy it by hand.');
    }
  }

  async function openShareSheet() {
    try {
      await navigator.share({ ...share, url: link });
    } catch {
      // The member closed the share sheet: nothing to report.
    }
  }

  return (
    <>
      <label className="visually-hidden" htmlFor={fieldId}>
        {label}
      </label>
      <input
        id={fieldId}
        className="copy-field"
        readOnly
        value={link}
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="row">
        <button type="button" className="button primary" onClick={copy}>
          {copied ? 'Copied!' : 'Copy link'}
        </button>
        {canShare ? (
          <button type="button" className="button" onClick={openShareSheet}>
            Share
          </button>
        ) : null}
      </div>
    </>
  );
}
