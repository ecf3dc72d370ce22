/* Runs before the page paints: applies a remembered theme choice (else the system
   setting applies through CSS) and marks the page as scripted. */
(function () {
  var root = document.documentElement;
  root.classList.add("js");
  try {
    var t = window.localStorage.getItem("warbook-theme");
    if (t === "dark" || t === "light") root.setAttribute("data-theme", t);
  } catch (e) { /* storage unavailable: follow the system setting */ }
})();
