"""Clicks through `healthpipe serve`'s app in headless Chromium (Playwright), as a patient would.

Usage: app_walkthrough.py BASE_URL DATABASE HEALTHPIPE_BINARY SCREENSHOT_DIR
Run by ServeTests/AppBrowserTests.swift against a real server; exits non-zero with the reason when
a step does not do what it should. Every check waits for the page to change in place: a full page
load would reset `window.__noReload`, and that is checked after each step that must not reload.
"""
import datetime
import os
import re
import subprocess
import sys

from playwright.sync_api import expect, sync_playwright

BASE, DB, BINARY, SHOTS = sys.argv[1:5]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
expect.set_options(timeout=15_000)


def iso(d):
    return d.isoformat()


def day_heading(d):
    # Fmt.longDate: "Tuesday 5 March 2024"
    return f"{d.strftime('%A')} {d.day} {d.strftime('%B')} {d.year}"


def marker(page):
    page.evaluate("window.__noReload = 1")


def not_reloaded(page, step):
    if page.evaluate("window.__noReload") != 1:
        raise SystemExit(f"{step}: the page reloaded instead of updating in place")


def shot(page, name):
    page.screenshot(path=os.path.join(SHOTS, name + ".png"), full_page=True)


def set_reminder(page, hhmm):
    page.click("nav.tabs a[href^='/settings?']")
    page.fill("#reminder-form input[name=reminder]", hhmm)
    page.click("#reminder-form button.primary")
    expect(page.locator("#flash")).to_contain_text("reminder: " + hhmm)
    expect(page.locator("#reminder-now")).to_contain_text("by " + hhmm)


def walk(browser, last_day):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(BASE + "/")
    expect(page.locator("#main article.dayview h3")).to_have_text(day_heading(last_day))
    shot(page, "desktop-day")

    # Three years back by the date picker, then by the arrows and the keyboard.
    marker(page)
    back = last_day.replace(year=last_day.year - 3)
    page.fill("#day-picker", iso(back))
    page.dispatch_event("#day-picker", "change")
    expect(page.locator("#main article.dayview h3")).to_have_text(day_heading(back))
    expect(page).to_have_url(BASE + "/day/" + iso(back))
    page.click("#main .daynav a.prev")
    expect(page.locator("#main article.dayview h3")).to_have_text(day_heading(back - datetime.timedelta(days=1)))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#main article.dayview h3")).to_have_text(day_heading(back - datetime.timedelta(days=2)))
    page.keyboard.press("ArrowRight")
    expect(page.locator("#main article.dayview h3")).to_have_text(day_heading(back - datetime.timedelta(days=1)))
    page.keyboard.press("ArrowRight")
    expect(page.locator("#main article.dayview h3")).to_have_text(day_heading(back))
    if page.locator("#main article.dayview circle.reading").count() == 0:
        raise SystemExit("three years back: the day has no readings drawn")
    # Back goes to the day drawn before.
    page.go_back()
    expect(page.locator("#main article.dayview h3")).to_have_text(day_heading(back - datetime.timedelta(days=1)))
    not_reloaded(page, "navigation")

    # Insulin by the form, on the day at once.
    page.goto(BASE + "/day/" + iso(last_day))
    marker(page)
    page.fill("#add-insulin input[name=units]", "4.5")
    page.fill("#add-insulin input[name=at]", iso(last_day) + "T09:15")
    page.click("#add-insulin button[type=submit]")
    expect(page.locator("#flash")).to_contain_text("stored")
    expect(page.locator("#entries")).to_contain_text("insulin 4.5 U")
    expect(page.locator("#main .day-wide g.event[data-kind=insulin] title", has_text="4.5 U")).to_have_count(1)
    not_reloaded(page, "add insulin")
    shot(page, "desktop-day-insulin")

    # A refused form says why and keeps the page.
    page.fill("#add-meal input[name=carbs]", "-5")
    page.evaluate("document.querySelector('#add-meal input[name=carbs]').removeAttribute('min')")
    page.click("#add-meal button[type=submit]")
    expect(page.locator("#flash.bad")).to_be_visible()

    # Star the day with a note; the day table lists it as a favourite.
    page.fill("#favourite input[name=note]", "Good day <b>")
    page.click("#favourite button[value='1']")
    expect(page.locator("#favourite .star.on")).to_be_visible()
    not_reloaded(page, "favourite")
    page.click("nav.tabs a[href^='/days?']")
    expect(page.locator(f"#day-table tr.fav[data-date='{iso(last_day)}'] .star.on")).to_have_attribute("title", "Favourite: Good day <b>")
    shot(page, "desktop-days")
    # The table's star is a button: on, then off again, redrawn in place.
    other = iso(last_day - datetime.timedelta(days=1))
    page.click(f"#star-{other} button")
    expect(page.locator(f"#day-table tr.fav[data-date='{other}'] .star.on")).to_be_visible()
    page.click(f"#star-{other} button")
    expect(page.locator(f"#day-table tr[data-date='{other}'] .star.on")).to_have_count(0)
    not_reloaded(page, "table star")
    page.click(f"#day-table tr[data-date='{iso(last_day)}'] a")
    expect(page.locator("#main article.dayview h3")).to_have_text(day_heading(last_day))

    # Illness on, then off — on the day shown (yesterday): that whole day, not an episode from now.
    page.click("#switch-illness button")
    expect(page.locator("#switch-illness button.toggle.on")).to_be_visible()
    expect(page.locator("#switch-illness small")).to_contain_text("on this day")
    page.click("#switch-illness button")
    expect(page.locator("#switch-illness button.toggle.on")).to_have_count(0)
    not_reloaded(page, "illness")

    # Live: a meal logged by the CLI beside the server shows without any click.
    subprocess.run([BINARY, "add", "meal", "--db", DB, "--carbs", "33", "--name", "Toast from the CLI", "--at", iso(last_day) + " 12:30"],
                   check=True, capture_output=True)
    expect(page.locator("#entries")).to_contain_text("Toast from the CLI", timeout=20_000)
    not_reloaded(page, "live update")

    # The reminder time, changed on /settings (`alerts set`): at 23:59 nothing is due yet; back at 00:01 it is.
    now = datetime.datetime.now()
    if (now.hour, now.minute) < (23, 58):
        set_reminder(page, "23:59")
        page.click("nav.tabs a[href^='/reports?']")
        expect(page.locator("#new-report")).to_be_visible()
        expect(page.locator("#reminders .due-reminder")).to_have_count(0)
    set_reminder(page, "00:01")

    # The reminder is due (the test database reminds at 00:01): snooze it to later today.
    page.goto(BASE + "/reports")
    marker(page)
    expect(page.locator("#reminders .due-reminder")).to_be_visible()
    shot(page, "desktop-reports-reminder")
    now = datetime.datetime.now()
    if now.hour < 23:
        page.fill("#snooze input[name=until]", f"{now.hour + 1:02d}:{now.minute:02d}")
        page.click("#snooze button")
        expect(page.locator("#flash")).to_contain_text("postponed")
        expect(page.locator("#reminders .due-reminder")).to_have_count(0)

    # A report: create, see the calendar and summary; change it; delete it.
    today = datetime.date.today()
    page.fill("#add-report input[name=metric_0]", "body_temperature")
    page.fill("#add-report input[name=value_0]", "37.8")
    page.select_option("#add-report select[name=importance_0]", "4")
    page.fill("#add-report input[name=metric_1]", "blood_pressure_systolic")
    page.fill("#add-report input[name=value_1]", "135")
    page.fill("#add-report input[name=note]", "Headache & tired")
    page.fill("#add-report input[name=at]", iso(today) + "T08:00")
    page.click("#add-report button[type=submit]")
    expect(page.locator("#flash")).to_contain_text("stored")
    cell = page.locator(f"table.calendar a.cal-link[href='#reports-{iso(today)}']")
    expect(cell.locator(".count")).to_have_text("1")
    summary = page.locator(f"#reports-{iso(today)}")
    expect(summary).to_contain_text("37.8")
    shot(page, "desktop-reports")
    item = page.locator("#month-reports li.report").first
    item.locator("details.edit:not(.confirm-delete) > summary").click()
    item.locator("input[name=value_0]").fill("38.4")
    item.locator("button.primary").click()
    expect(page.locator("#flash")).to_contain_text("changed")
    expect(page.locator(f"#reports-{iso(today)}")).to_contain_text("38.4")
    # A delete asks first: the button opens the question, its own button deletes.
    item = page.locator("#month-reports li.report").first
    item.locator("details.confirm-delete > summary").click()
    expect(item.locator(".confirm-question")).to_contain_text("This cannot be undone")
    item.locator("details.confirm-delete button.danger").click()
    expect(page.locator("#flash")).to_contain_text("deleted")
    expect(page.locator(f"table.calendar a.cal-link[href='#reports-{iso(today)}']")).to_have_count(0)
    not_reloaded(page, "reports")

    # The bands setting changes the views.
    page.click("nav.tabs a[href^='/settings?']")
    page.check("#settings-form input[name=bands][value=consensus]")
    page.click("#settings-form button[type=submit]")
    expect(page.locator("#flash")).to_contain_text("settings saved")
    page.click("nav.tabs a[href^='/?']")
    expect(page.locator("#subtitle")).to_contain_text("Very high")
    shot(page, "desktop-day-consensus")

    page.goto(BASE + "/agp?from=" + iso(last_day - datetime.timedelta(days=13)) + "&to=" + iso(last_day))
    expect(page.locator("path.percentile")).to_have_count(5)
    shot(page, "desktop-agp")
    # A threshold added on /settings raises an alert on a report written beside the server; removed, it is gone.
    subprocess.run([BINARY, "reports", "add", "--db", DB, "--value", "body_temperature=38.6:4", "--value", "pain=3:2"],
                   check=True, capture_output=True)
    page.goto(BASE + "/settings")
    marker(page)
    page.fill("#add-threshold input[name=metric]", "temperature")
    page.fill("#add-threshold input[name=limit]", "99.5degF")
    page.fill("#add-threshold input[name=days]", "3")
    page.click("#add-threshold button[type=submit]")
    expect(page.locator("#flash")).to_contain_text("threshold: body_temperature above 37.5")
    expect(page.locator("#thresholds li.threshold")).to_contain_text("3-day average of body_temperature (importance ≥ 4) above 37.5 °C")
    # The settings parser's refusal, as the command words it.
    page.fill("#add-threshold input[name=metric]", "pain")
    page.fill("#add-threshold input[name=limit]", "12")
    page.click("#add-threshold button[type=submit]")
    expect(page.locator("#flash.bad")).to_contain_text("threshold on pain")
    expect(page.locator("#thresholds li.threshold")).to_have_count(1)
    not_reloaded(page, "thresholds")
    shot(page, "desktop-settings")
    page.click("nav.tabs a[href^='/reports?']")
    expect(page.locator("#reminders .due-alert")).to_contain_text("body_temperature")
    page.click("nav.tabs a[href^='/settings?']")
    page.click("#thresholds li.threshold details.confirm-delete > summary")
    page.click("#thresholds li.threshold details.confirm-delete button.danger")
    expect(page.locator("#flash")).to_contain_text("thresholds: none")
    expect(page.locator("#thresholds li.threshold")).to_have_count(0)
    page.click("nav.tabs a[href^='/reports?']")
    expect(page.locator("#new-report")).to_be_visible()
    expect(page.locator("#reminders .due-alert")).to_have_count(0)
    # The refused meal above answers 422 on purpose; the browser logs every such answer.
    errors = [e for e in errors if "status of 422" not in e]
    if errors:
        raise SystemExit("the browser reported errors: " + "; ".join(errors))
    page.close()


def phone(browser, last_day):
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    for path, name in [("/day/" + iso(last_day), "phone-day"), ("/days", "phone-days"), ("/reports", "phone-reports"),
                       ("/agp", "phone-agp"), ("/settings", "phone-settings")]:
        page.goto(BASE + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            raise SystemExit(f"{path}: the page is {width}px wide on a 390px phone (it scrolls sideways)")
        # The person switcher is on every screen, whole on the phone's width.
        box = page.locator("#person-picker").bounding_box()
        if box is None or box["x"] < 0 or box["x"] + box["width"] > 390:
            raise SystemExit(f"{path}: the person switcher is not within the 390px phone ({box})")
        shot(page, name)
    page.close()


def printed(browser, last_day):
    """The clinic's copy: the AGP report prints on one A4 page, and the AGP and days pages print
    without the navigation, switcher, date controls, forms or buttons."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    agp = "/agp?from=" + iso(last_day - datetime.timedelta(days=13)) + "&to=" + iso(last_day)
    for path in [agp, "/days"]:
        page.goto(BASE + path)
        page.emulate_media(media="print")
        for hidden in ["nav.tabs", "form.people", "form.period", ".btn", "#add-threshold"]:
            shown = [i for i in range(page.locator(hidden).count()) if page.locator(hidden).nth(i).is_visible()]
            if shown:
                raise SystemExit(f"{path}: printed with {hidden} showing")
        page.emulate_media(media="null")  # back to what the page asks for (print, for the PDF below)
    page.goto(BASE + agp)
    pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    with open(os.path.join(SHOTS, "print-agp.pdf"), "wb") as f:
        f.write(pdf)
    pages = sum(int(n) for n in re.findall(rb"/Type\s*/Pages\s*/Count\s+(\d+)", pdf))
    if pages != 1:
        raise SystemExit(f"the AGP report prints on {pages} A4 pages, not one")
    page.close()


def main():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        last_day = datetime.date.fromisoformat(os.environ["LAST_DAY"])
        walk(browser, last_day)
        phone(browser, last_day)
        printed(browser, last_day)
        browser.close()
    print("ok")


main()
