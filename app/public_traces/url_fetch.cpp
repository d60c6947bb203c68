#include "app/public_traces/url_fetch.h"

#include <QDir>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>


namespace rematlens {

FetchResult fetchUrl(const QUrl &url, qint64 maxBytes, int stallSeconds)
{
    QNetworkAccessManager manager;
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setTransferTimeout(stallSeconds * 1000); // milliseconds: Qt 6.4 takes no std::chrono here
    QNetworkReply *reply = manager.get(request);
    FetchResult result;
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&] {
        result.data += reply->readAll();
        if (result.data.size() > maxBytes && result.error.isEmpty()) {
            result.error = QStringLiteral("more than %1 bytes, far larger than expected").arg(maxBytes);
            reply->abort();
        }
    });
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    if (result.error.isEmpty() && reply->error() != QNetworkReply::NoError)
        result.error = reply->error() == QNetworkReply::OperationCanceledError
                           ? QStringLiteral("no data arrived for %1 s").arg(stallSeconds)
                           : reply->errorString();
    else if (result.error.isEmpty())
        result.data += reply->readAll();
    if (!result.error.isEmpty())
        result.data.clear();
    return result;
}

QUrl urlFromUserInput(const QString &text)
{
    return QUrl::fromUserInput(text, QDir::currentPath(), QUrl::AssumeLocalFile);
}

} // namespace rematlens
