import { Link } from '@tanstack/react-router';
import { useState } from 'react';

// A new member's next steps at the top of the dashboard, each ticked from what the server already
// says (the session, the balance, the income summary, the team). Once every step is done the guide
// is gone for good; a member who does not want one of them (not everyone invites) can hide it.

export type FirstStep = 'verify' | 'money' | 'plan' | 'invite';
export type FirstStepsDone = Record<FirstStep, boolean>;

/** Each step's name and where it is done. Anchors stay on the dashboard, whose cards do the step. */
const STEPS: {
  key: FirstStep;
  label: string;
  to?: '/user/add-money' | '/user/subscription';
  href?: string;
}[] = [
  { key: 'verify', label: 'Verify your e-mail', href: '#verify-title' },
  { key: 'money', label: 'Add money', to: '/user/add-money' },
  { key: 'plan', label: 'Choose a plan', to: '/user/subscription' },
  { key: 'invite', label: 'Invite someone', href: '#referral-title' },
];

const hiddenKey = (memberId: string) => `first-steps-hidden:${memberId}`;

function readHidden(memberId: string): boolean {
  try {
    return localStorage.getItem(hiddenKey(memberId)) === '1';
  } catch {
    return false;
  }
}

/** `done` is null until every answer it needs is in: a member with all done never sees it flash. */
export function FirstSteps({ memberId, done }: { memberId: string; done: FirstStepsDone | null }) {
  const [hidden, setHidden] = useState(() => readHidden(memberId));
  if (!done || hidden) return null;
  const count = STEPS.filter((step) => done[step.key]).length;
  if (count === STEPS.length) return null;

  function hide() {
    try {
      localStorage.setItem(hiddenKey(memberId), '1');
    } catch {
      // Storage refused (private mode): hidden for this visit only.
    }
    setHidden(true);
  }

  return (
    <section className="card" aria-labelledby="first-steps-title" data-testid="first-steps">
      <h2 id="first-steps-title">Your first steps</h2>
      <p className="muted" data-testid="first-steps-count">
        {count} of {STEPS.length} done
      </p>
      <ol className="activity">
        {STEPS.map((step) => (
          <li key={step.key} className="row" data-step={step.key} data-done={done[step.key]}>
            {done[step.key] ? (
              <>
                <span>{step.label}</span>
                <span className="badge green">
                  <span aria-hidden="true">✓ </span>Done
                </span>
              </>
            ) : (
              <>
                {step.to ? (
                  <Link to={step.to} className="button">
                    {step.label}
                  </Link>
                ) : (
                  <a href={step.href} className="button">
                    {step.label}
                  </a>
                )}
                <span className="badge grey">To do</span>
              </>
            )}
          </li>
        ))}
      </ol>
      <button type="button" className="button" onClick={hide}>
        Hide these steps
      </button>
    </section>
  );
}
