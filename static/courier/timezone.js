// Tell the server the browser's time zone, so that deadlines and log times are shown in
// it (a user's chosen zone in their preferences wins).
(function () {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && !document.cookie.split("; ").includes("tz=" + zone)) {
      const secure = location.protocol === "https:" ? "; Secure" : "";
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax" + secure;
    }
  } catch (error) {
    // No Intl support: times stay in UTC.
  }
})();
