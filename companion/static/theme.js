// Runs before the page is drawn, so a dark table never flashes white.
(function () {
  try {
    var theme = localStorage.getItem("spellpress.theme");
    if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  } catch (e) { /* storage blocked: follow the system */ }
})();
