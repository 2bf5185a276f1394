import { LANDING_LINKS } from '../../shared/landing.ts';
import { BLOG, BRAND, CONTACT, FOOTER } from '../content.ts';
import { Icon, Logo } from '../icons.tsx';

// Spec 5: the contact form has no validation and sends nothing. So it says so before anyone types,
// and again when it is submitted. Its fields have no `name`, so even a submission without the
// enhance script carries no data anywhere; `noValidate` keeps the browser's own checks out of it.

export function Contact() {
  return (
    <section id="contact" className="section contact" aria-labelledby="contact-title">
      <div className="container contact-grid">
        <div>
          <p className="eyebrow">Contact</p>
          <h2 id="contact-title">{CONTACT.title}</h2>
          <p className="lead">{CONTACT.lead}</p>
          <p className="notice" id="contact-notice">
            {CONTACT.notice}
          </p>
        </div>
        <form
          className="contact-form"
          action="#contact"
          noValidate
          aria-describedby="contact-notice"
          data-unsent-form
        >
          <div className="field">
            <label htmlFor="contact-name">Name</label>
            <input id="contact-name" type="text" autoComplete="name" />
          </div>
          <div className="field">
            <label htmlFor="contact-email">E-mail</label>
            <input id="contact-email" type="email" autoComplete="email" />
          </div>
          <div className="field">
            <label htmlFor="contact-subject">Subject</label>
            <input id="contact-subject" type="text" autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="contact-message">Message</label>
            <textarea id="contact-message" rows={5} />
          </div>
          <button type="submit" className="btn btn-navy">
            {CONTACT.submit}
          </button>
          <p className="form-status" role="status" data-form-status data-message={CONTACT.sent} />
        </form>
      </div>
    </section>
  );
}

export function SiteFooter({ buildYear }: { buildYear: number }) {
  const recent = BLOG.posts.slice(0, 3);
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-about">
          <a className="brand" href="#top">
            <Logo />
            <span>{BRAND}</span>
          </a>
          <p>{FOOTER.description}</p>
          <ul className="social">
            {FOOTER.social.map((item) => (
              <li key={item.icon}>
                <a className="social-link" href={item.href}>
                  <Icon name={item.icon} size={22} />
                  <span className="visually-hidden">{item.label}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2>Recent posts</h2>
          <ul className="footer-links">
            {recent.map((post) => (
              <li key={post.id}>
                <a className="footer-link" href="/login">
                  {post.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-labelledby="footer-links-title">
          <h2 id="footer-links-title">Useful links</h2>
          <ul className="footer-links">
            {LANDING_LINKS.filter((link) => link.anchor !== 'top').map((link) => (
              <li key={link.anchor}>
                <a className="footer-link" href={`#${link.anchor}`}>
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <a className="footer-link" href="#faq">
                FAQ
              </a>
            </li>
            <li>
              <a className="footer-link" href="/income-disclosure">
                Income disclosure
              </a>
            </li>
            <li>
              <a className="footer-link" href="/registration">
                Sign Up
              </a>
            </li>
            <li>
              <a className="footer-link" href="/login">
                Login
              </a>
            </li>
          </ul>
        </nav>
        <div>
          <h2 id="newsletter-title">Newsletter</h2>
          <p id="newsletter-notice">{FOOTER.newsletterNotice}</p>
          <form
            className="newsletter"
            action="#newsletter-title"
            noValidate
            aria-labelledby="newsletter-title"
            aria-describedby="newsletter-notice"
            data-unsent-form
          >
            <label htmlFor="newsletter-email" className="visually-hidden">
              Your e-mail
            </label>
            <input id="newsletter-email" type="email" autoComplete="email" placeholder="Your e-mail" />
            <button type="submit" className="btn btn-gold">
              <Icon name="mail" size={18} />
              Subscribe
            </button>
            <p className="form-status" role="status" data-form-status data-message={FOOTER.newsletterSent} />
          </form>
        </div>
      </div>
      <div className="footer-bottom">
        <p className="container">
          © <span data-year>{buildYear}</span> {BRAND}. Crypto trading involves significant risk.
        </p>
      </div>
    </footer>
  );
}
