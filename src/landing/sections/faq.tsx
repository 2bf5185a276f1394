import { FAQ } from '../content.ts';
import { Icon } from '../icons.tsx';

/**
 * The FAQ as disclosures (WAI-ARIA APG): each question is a button with aria-expanded that controls
 * its answer, a region named by the question; the enhance script opens and closes each on its own.
 */
export function Faq() {
  return (
    <section id="faq" className="section faq" aria-labelledby="faq-title" data-faq>
      <div className="container faq-grid">
        <div className="section-head">
          <p className="eyebrow">FAQ</p>
          <h2 id="faq-title">{FAQ.title}</h2>
        </div>
        <div className="faq-list">
          {FAQ.items.map((item, i) => (
            <div key={item.question} className="faq-item">
              <h3>
                <button
                  type="button"
                  className="faq-question"
                  id={`faq-q-${i}`}
                  aria-expanded="false"
                  aria-controls={`faq-a-${i}`}
                  data-faq-question
                >
                  <span>{item.question}</span>
                  <Icon name="plus" size={20} className="faq-icon" />
                </button>
              </h3>
              <section className="faq-answer" id={`faq-a-${i}`} aria-labelledby={`faq-q-${i}`} hidden>
                <p>{item.answer}</p>
              </section>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
