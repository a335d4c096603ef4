// Loaded first by the CSP test page: records every Content-Security-Policy violation for the test.
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
