#include "trace_hash.h"

#include "app/formats/trace_source.h"

#include <QCryptographicHash>
#include <QFile>

namespace rematlens {

QString traceContentHash(const QString &pathOrDemo)
{
    QFile file(pathOrDemo == QLatin1String(kDemoTraceName) ? QStringLiteral(":/traces/demo.log") : pathOrDemo);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!file.open(QIODevice::ReadOnly) || !hash.addData(&file))
        return {};
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace rematlens
