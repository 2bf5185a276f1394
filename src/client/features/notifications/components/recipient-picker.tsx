import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { NOTIFICATION_MESSAGES, type RecipientCandidate } from '../../../../shared/notifications.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { searchRecipients } from '../api.ts';

const SEARCH_PAUSE_MS = 300;

/** Spec 2/5: a user search by e-mail (case-insensitive substring) with checkable results, and the chosen list. */
export function RecipientPicker({
  chosen,
  onChange,
  error,
}: {
  chosen: RecipientCandidate[];
  onChange: (next: RecipientCandidate[]) => void;
  error?: string;
}) {
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setTerm(text.trim()), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useQuery({
    queryKey: ['notifications', 'recipients', term],
    queryFn: () => searchRecipients(term),
    enabled: term.length > 0,
    staleTime: 10_000,
  });
  const chosenIds = new Set(chosen.map((u) => u.id));
  const toggle = (user: RecipientCandidate, checked: boolean) =>
    onChange(checked ? [...chosen, user] : chosen.filter((u) => u.id !== user.id));

  return (
    <div className="stack">
      <FormField
        label={NOTIFICATION_MESSAGES.searchUsers}
        type="search"
        name="user-search"
        autoComplete="off"
        value={text}
        onChange={(e) => setText(e.target.value)}
        error={error}
      />
      {term.length === 0 ? null : results.isPending ? (
        <p className="muted">{NOTIFICATION_MESSAGES.searching}</p>
      ) : results.data?.length ? (
        <ul className="recipient-results" aria-label="Search results">
          {results.data.map((user) => (
            <li key={user.id}>
              <label>
                <input
                  type="checkbox"
                  checked={chosenIds.has(user.id)}
                  onChange={(e) => toggle(user, e.target.checked)}
                />
                <span>
                  {user.email} <span className="muted">({user.fullname})</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{NOTIFICATION_MESSAGES.noUsersFound}</p>
      )}
      <div>
        <h3>{NOTIFICATION_MESSAGES.selectedUsers}</h3>
        {chosen.length === 0 ? (
          <p className="muted">{NOTIFICATION_MESSAGES.noSelectedUsers}</p>
        ) : (
          <ul className="recipient-chosen" aria-label={NOTIFICATION_MESSAGES.selectedUsers}>
            {chosen.map((user) => (
              <li key={user.id}>
                <span>{user.email}</span>
                <button
                  type="button"
                  className="button small"
                  aria-label={`Remove ${user.email}`}
                  onClick={() => toggle(user, false)}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
