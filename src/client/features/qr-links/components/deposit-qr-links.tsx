import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { QrLink } from '../../../../shared/qr-links.ts';
import { qrLinksQuery } from '../api.ts';
import { QrImage } from './qr-image.tsx';

// The QR links an admin keeps (spec 7 "QR link"), shown to members where they deposit: each a label,
// its code drawn on the phone, and the link to open or the address to copy. Nothing shows when there
// are none.

function QrLinkCard({ link }: { link: QrLink }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(link.value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }
  return (
    <li className="card stack qr-link" data-testid="qr-link">
      <h3>{link.label}</h3>
      <QrImage text={link.value} label={link.label} />
      <p className="qr-link-value">{link.value}</p>
      {link.kind === 'url' ? (
        <a className="button" href={link.value} target="_blank" rel="noopener noreferrer">
          Open {link.label}
        </a>
      ) : (
        <button type="button" className="button" onClick={copy}>
          {copied ? 'Copied!' : `Copy ${link.label}`}
        </button>
      )}
    </li>
  );
}

export function DepositQrLinks() {
  const { data } = useQuery(qrLinksQuery);
  if (!data?.qr.length) return null;
  return (
    <section className="stack" aria-labelledby="qr-links-title">
      <h2 id="qr-links-title">Where to deposit</h2>
      <ul className="stack plain-list" aria-label="QR codes">
        {data.qr.map((link) => (
          <QrLinkCard key={link.id} link={link} />
        ))}
      </ul>
    </section>
  );
}
