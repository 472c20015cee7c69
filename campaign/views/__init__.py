from django.http import HttpResponse


def campaign_list(request):
    return HttpResponse("Courier")
