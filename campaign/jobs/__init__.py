"""Work that starts outside a page: the background worker's tasks (the clock's check of
deadlines and reminders, automatic resolution, the press digests), the progress a page
polls while a resolution is queued or running, and the mails players send back, read and
carried out as the pages would. It is the top layer: it may use every other subpackage,
and none of them imports it."""
