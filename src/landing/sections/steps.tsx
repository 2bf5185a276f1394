import { COUNTER_STEP_MS, COUNTER_VISIBLE_THRESHOLD } from '../../shared/landing.ts';
import { PROCESS, STATS } from '../content.ts';
import { Icon } from '../icons.tsx';

/**
 * The stats banner. The page is built with the final numbers (what a reader without script, or one who
 * asked for reduced motion, sees); the enhance script counts them up from 0 when half the banner is
 * visible. Screen readers get the final number only, never the moving one.
 */
export function StatsBanner() {
  return (
    <section
      id="banner"
      className="banner"
      aria-labelledby="banner-title"
      data-counters
      data-step-ms={COUNTER_STEP_MS}
      data-threshold={COUNTER_VISIBLE_THRESHOLD}
    >
      <div className="container">
        <h2 id="banner-title" className="visually-hidden">
          {STATS.title}
        </h2>
        <ul className="stats">
          {STATS.items.map((stat) => (
            <li key={stat.label}>
              <p className="stat-value">
                <span className="counter" data-counter={stat.value} aria-hidden="true">
                  {stat.value}
                </span>
                <span className="visually-hidden">{stat.value}</span>
              </p>
              <p className="stat-label">{stat.label}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function Process() {
  return (
    <section id="process" className="section process" aria-labelledby="process-title">
      <div className="container">
        <div className="section-head">
          <p className="eyebrow">Process</p>
          <h2 id="process-title">{PROCESS.title}</h2>
          <p className="lead">{PROCESS.lead}</p>
        </div>
        <ol className="steps">
          {PROCESS.steps.map((step, i) => (
            <li key={step.title} className="step">
              <span className="step-number" aria-hidden="true">
                {String(i + 1).padStart(2, '0')}
              </span>
              <h3>
                <span className="visually-hidden">Step {i + 1}: </span>
                {step.title}
              </h3>
              <p>{step.text}</p>
              <a className="step-plus" href="/login">
                <Icon name="plus" size={22} />
                <span className="visually-hidden">Log in to start step {i + 1}</span>
              </a>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
