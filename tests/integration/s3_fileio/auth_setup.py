"""Turns on request authentication in a running moto server, so it checks our signatures.

Creates an IAM user with an access key and a role it may assume, assumes the role (STS vends a
session token), then enables moto's auth for every later request (POST /moto-api/reset-auth).
Prints KEY=VALUE lines: IT_KEY_ID, IT_SECRET, IT_STS_KEY_ID, IT_STS_SECRET, IT_STS_TOKEN.
Usage: auth_setup.py ENDPOINT REGION
"""
import json
import sys
import urllib.request

import boto3

endpoint, region = sys.argv[1:3]
# Before auth is on, moto accepts any key; these bootstrap values are not secrets.
boot = dict(endpoint_url=endpoint, region_name=region, aws_access_key_id="bootstrap",
            aws_secret_access_key="bootstrap")
allow_all = json.dumps({"Version": "2012-10-17",
                        "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]})
iam = boto3.client("iam", **boot)
iam.create_user(UserName="databox-it")
iam.put_user_policy(UserName="databox-it", PolicyName="all", PolicyDocument=allow_all)
key = iam.create_access_key(UserName="databox-it")["AccessKey"]
trust = json.dumps({"Version": "2012-10-17", "Statement": [{
    "Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]})
role = iam.create_role(RoleName="databox-it-role", AssumeRolePolicyDocument=trust)["Role"]
iam.put_role_policy(RoleName="databox-it-role", PolicyName="all", PolicyDocument=allow_all)
sts = boto3.client("sts", endpoint_url=endpoint, region_name=region,
                   aws_access_key_id=key["AccessKeyId"],
                   aws_secret_access_key=key["SecretAccessKey"])
vended = sts.assume_role(RoleArn=role["Arn"], RoleSessionName="databox-it",
                         DurationSeconds=3600)["Credentials"]
# A form content type would make the server parse the body as a form and see no count.
request = urllib.request.Request(endpoint + "/moto-api/reset-auth", data=b"0", method="POST",
                                 headers={"Content-Type": "application/octet-stream"})
with urllib.request.urlopen(request) as response:
    assert response.status == 200, response.status
print(f"IT_KEY_ID={key['AccessKeyId']}")
print(f"IT_SECRET={key['SecretAccessKey']}")
print(f"IT_STS_KEY_ID={vended['AccessKeyId']}")
print(f"IT_STS_SECRET={vended['SecretAccessKey']}")
print(f"IT_STS_TOKEN={vended['SessionToken']}")
