import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type MemberNotification, NOTIFICATION_MESSAGES } from '../../../../shared/notifications.ts';
import { Modal } from '../../../ui/modal.tsx';
import { markNotificationSeen, notificationsHomeQuery, refreshNotifications } from '../api.ts';

/**
 * A site_popup notification shows once as a pop-up (RULES.md): it is marked seen the moment it shows,
 * so closing the tab instead of pressing the button does not bring it back. Several wait their turn.
 */
export function SitePopup({ memberId }: { memberId: string }) {
  const queryClient = useQueryClient();
  const popups = useQuery(notificationsHomeQuery).data?.popups;
  const [current, setCurrent] = useState<MemberNotification | null>(null);
  const handled = useRef(new Set<string>());

  useEffect(() => {
    if (current) return;
    const next = popups?.find((p) => !handled.current.has(p.id));
    if (!next) return;
    handled.current.add(next.id);
    setCurrent(next);
    markNotificationSeen(next.id, memberId)
      .then(() => refreshNotifications(queryClient))
      .catch(() => {
        // Not marked: it shows again next time, which is better than never.
      });
  }, [popups, current, memberId, queryClient]);

  return (
    <Modal open={current !== null} title={current?.title ?? ''} onClose={() => setCurrent(null)}>
      <p className="notification-message" data-testid="site-popup-message">
        {current?.message}
      </p>
      <div className="modal-actions">
        <button type="button" className="button primary" onClick={() => setCurrent(null)}>
          {NOTIFICATION_MESSAGES.popupClose}
        </button>
      </div>
    </Modal>
  );
}
