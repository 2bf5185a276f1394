import { createFileRoute } from '@tanstack/react-router';
import { AdminQrLinks } from '../../features/qr-links/components/admin-qr-links.tsx';

export const Route = createFileRoute('/admin/qr-links')({ component: QrLinksPage });

function QrLinksPage() {
  return (
    <div className="stack">
      <h1>QR links</h1>
      <p className="muted">
        Members see these codes on their deposit history screen, where they deposit: an https link or a BEP20
        or TRC20 wallet address, checked before it is saved.
      </p>
      <AdminQrLinks />
    </div>
  );
}
