import { ABOUT, CHOOSE, HOW_IT_WORKS } from '../content.ts';
import { Icon, type IconName } from '../icons.tsx';

export function About() {
  return (
    <section id="about" className="section about" aria-labelledby="about-title">
      <div className="container about-grid">
        <div>
          <p className="eyebrow">About</p>
          <h2 id="about-title">{ABOUT.title}</h2>
          <p className="lead">{ABOUT.lead}</p>
          <p>{ABOUT.text}</p>
          <h3 className="goals-title">{ABOUT.goalsTitle}</h3>
          <ul className="goals">
            {ABOUT.goals.map((goal, i) => (
              <li key={goal.label}>
                <div className="goal-head">
                  <span id={`goal-${i}`}>{goal.label}</span>
                  <span className="goal-value" aria-hidden="true">
                    {goal.percent}%
                  </span>
                </div>
                <progress max={100} value={goal.percent} aria-labelledby={`goal-${i}`}>
                  {goal.percent}%
                </progress>
              </li>
            ))}
          </ul>
          <a className="btn btn-navy" href="/login">
            {ABOUT.cta}
          </a>
        </div>
        <AboutArt />
      </div>
    </section>
  );
}

/** A page of notes beside a shield: reading first, safety first. */
function AboutArt() {
  return (
    <svg
      className="about-art"
      viewBox="0 0 320 260"
      width="320"
      height="260"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="10" y="20" width="220" height="190" rx="18" fill="#e8eef8" />
      <rect x="34" y="46" width="120" height="12" rx="6" fill="#0b1f3a" />
      <rect x="34" y="72" width="170" height="8" rx="4" fill="#9aa9c2" />
      <rect x="34" y="90" width="150" height="8" rx="4" fill="#9aa9c2" />
      <rect x="34" y="108" width="160" height="8" rx="4" fill="#9aa9c2" />
      <path d="M34 176 74 146 104 160 150 124 196 136" fill="none" stroke="#1d4ed8" strokeWidth="4" />
      <path
        d="M240 90 290 110v40c0 30-21 52-50 62-29-10-50-32-50-62v-40l50-20Z"
        fill="#0b1f3a"
        stroke="#f5b700"
        strokeWidth="4"
      />
      <path
        d="m218 150 16 16 30-32"
        fill="none"
        stroke="#f5b700"
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

type Feature = { icon: IconName; title: string; text: string };

function FeatureGrid({ items }: { items: readonly Feature[] }) {
  return (
    <ul className="feature-grid">
      {items.map((item) => (
        <li key={item.title} className="feature">
          <span className="feature-icon">
            <Icon name={item.icon} size={28} />
          </span>
          <h3>{item.title}</h3>
          <p>{item.text}</p>
        </li>
      ))}
    </ul>
  );
}

export function WhyChoose() {
  return (
    <section id="choose" className="section choose" aria-labelledby="choose-title">
      <div className="container">
        <div className="section-head">
          <p className="eyebrow">Why us</p>
          <h2 id="choose-title">{CHOOSE.title}</h2>
          <p className="lead">{CHOOSE.lead}</p>
        </div>
        <FeatureGrid items={CHOOSE.items} />
      </div>
    </section>
  );
}

/** The spec's unnamed section: what a member actually gets, as built. */
export function HowItWorks() {
  return (
    <section id="how-it-works" className="section how" aria-labelledby="how-title">
      <div className="container">
        <div className="section-head">
          <p className="eyebrow">Inside the app</p>
          <h2 id="how-title">{HOW_IT_WORKS.title}</h2>
          <p className="lead">{HOW_IT_WORKS.lead}</p>
        </div>
        <FeatureGrid items={HOW_IT_WORKS.items} />
      </div>
    </section>
  );
}
